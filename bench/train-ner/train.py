"""Trains parley's compact entity recogniser (PER/ORG/LOC, BIO) from scratch and exports it in
the folder layout PARLEY_NER_MODEL_DIR reads (config.json, tokenizer.json, onnx/model_quantized.onnx).

    python3 bench/train-ner/train.py --data ../shared/data/ner --names names.json --out engine/extract/neural/model

See bench/train-ner/README.md for the data, the licences and the figures. CPU only; the thread
count and the wall-clock budget are arguments because the machines are shared.
"""

import argparse
import collections
import json
import math
import os
import random
import re
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from synthetic import generate  # noqa: E402

LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"]
LABEL_ID = {l: i for i, l in enumerate(LABELS)}
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WNUT_TYPES = {"person": "PER", "group": "ORG", "corporation": "ORG", "location": "LOC"}

# The same word split as engine/extract/neural/words.ts (BERT's pre-tokenizer): punctuation and
# ASCII symbols are words of their own.
PUNCT = r"!-/:-@\[-`{-~\u2000-\u206F\u3000-\u303F\u00A1-\u00BF\u00D7\u00F7"
WORD_RE = re.compile(r"[" + PUNCT + r"]|[^\s" + PUNCT + r"]+")


def split_word(token):
    import unicodedata
    out, cur = [], ""
    for ch in token:
        if unicodedata.category(ch).startswith("P") or re.match(r"[" + PUNCT + r"]", ch):
            if cur:
                out.append(cur)
                cur = ""
            out.append(ch)
        elif ch.isspace():
            if cur:
                out.append(cur)
                cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out


def map_tag(tag, source):
    if tag in ("O", "", None):
        return "O"
    prefix, _, typ = tag.partition("-")
    if source == "wnut":
        typ = WNUT_TYPES.get(typ)
    elif source == "crossner":
        typ = CROSSNER_TYPES.get(typ)
    elif typ not in ("PER", "ORG", "LOC"):
        typ = None
    return "O" if typ is None else f"{prefix}-{typ}"


def read_conll(path, source):
    """Token-per-line files; the token is the first column (second for UNER's numbered lines), the tag the last."""
    sentences, tokens, tags = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            cols = line.split("\t") if "\t" in line else line.split(" ")
            if not line.strip() or len(cols) < 2:
                if tokens:
                    sentences.append((tokens, tags))
                tokens, tags = [], []
                continue
            token, tag = (cols[1], cols[2]) if source == "uner" else (cols[0], cols[-1])
            tag = map_tag(tag.strip(), source)
            for j, piece in enumerate(split_word(token)):
                tokens.append(piece)
                tags.append(tag if j == 0 or tag == "O" else "I-" + tag[2:])
    if tokens:
        sentences.append((tokens, tags))
    return sentences


def bio_from_spans(tokens, spans):
    """Words and BIO tags of a tokenised sentence with spans (start, end, type) over its tokens; the first of
    overlapping spans wins, and a span of type None claims its tokens as O."""
    tags, claimed = ["O"] * len(tokens), [False] * len(tokens)
    for start, end, typ in spans:
        if end <= start or any(claimed[start:end]):
            continue
        claimed[start:end] = [True] * (end - start)
        if typ is not None:
            tags[start:end] = [f"B-{typ}"] + [f"I-{typ}"] * (end - start - 1)
    words, word_tags = [], []
    for token, tag in zip(tokens, tags):
        for j, piece in enumerate(split_word(token)):
            words.append(piece)
            word_tags.append(tag if j == 0 or tag == "O" else "I-" + tag[2:])
    return words, word_tags


# Nationality and regional adjectives outside the gazetteer's list ("English", "Asian", "Kurdish"); the same rule as
# bench/eval-ner-public.ts, so that training and evaluation read Re-DocRED alike.
DEMONYM_SHAPE = re.compile(r"^[A-Z][a-z]+(?:ian|ese|ish)$")


def read_redocred(path, demonyms):
    """Re-DocRED documents, one list of sentences per document. PER/ORG/LOC kept; TIME, NUM and MISC are O, and
    so are nationality adjectives ("German", "Iraqi"), which Re-DocRED types LOC but parley does not read as places."""
    with open(path, encoding="utf-8") as f:
        docs = json.load(f)
    out = []
    for doc in docs:
        spans = collections.defaultdict(list)
        for entity in doc["vertexSet"]:
            for m in entity:
                typ = m["type"] if m["type"] in ("PER", "ORG", "LOC") else None
                if typ == "LOC" and (m["name"] in demonyms or DEMONYM_SHAPE.match(m["name"])):
                    typ = None
                spans[m["sent_id"]].append((m["pos"][0], m["pos"][1], typ))
        # By start, end, then a mention without a type first (bench/eval/ner-sets.ts sorts alike).
        out.append([bio_from_spans(sent, sorted(spans[i], key=lambda s: (s[0], s[1], s[2] or ""))) for i, sent in enumerate(doc["sents"])])
    return out


def read_wikigold(path):
    """wikigold: IO tags (I-PER, I-ORG, I-LOC, I-MISC), documents separated by -DOCSTART- lines; returns a list of
    sentences per document. IO becomes BIO (a span starts where the type changes); MISC is O."""
    docs, doc, tokens, tags = [], [], [], []

    def close_sentence():
        nonlocal tokens, tags
        if tokens:
            spans, start = [], None
            for i, tag in enumerate(tags + ["O"]):
                if start is not None and tag != tags[start]:
                    spans.append((start, i, tags[start][2:]))
                    start = None
                if start is None and tag[2:] in ("PER", "ORG", "LOC"):
                    start = i
            doc.append(bio_from_spans(tokens, spans))
        tokens, tags = [], []

    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("-DOCSTART-"):
                close_sentence()
                if doc:
                    docs.append(doc)
                doc = []
                continue
            cols = line.split(" ")
            if not line.strip() or len(cols) < 2:
                close_sentence()
                continue
            tokens.append(cols[0])
            tags.append(cols[-1])
    close_sentence()
    if doc:
        docs.append(doc)
    return docs


CROSSNER_TYPES = {"politician": "PER", "person": "PER", "politicalparty": "ORG", "organisation": "ORG",
                  "country": "LOC", "location": "LOC"}


def split_documents(docs):
    """wikigold has no splits: a fixed one by document index. Every fifth document (index % 5 == 0) is held out for
    evaluation and never trained on (bench/eval-ner-public.ts reads the same ones), the next (== 1) picks the epoch."""
    parts = {"train": [], "valid": [], "test": []}
    for i, doc in enumerate(docs):
        parts["test" if i % 5 == 0 else "valid" if i % 5 == 1 else "train"].extend(doc)
    return parts


def selftest():
    """Checks of the readers on small inline examples: `train.py --selftest`."""
    import tempfile
    words, tags = bio_from_spans(["The", "U.N.", "met", "German", "envoys", "in", "Deir", "ez-Zor"],
                                 [(1, 2, "ORG"), (3, 4, None), (3, 5, "PER"), (6, 8, "LOC")])
    assert words == ["The", "U", ".", "N", ".", "met", "German", "envoys", "in", "Deir", "ez", "-", "Zor"], words
    assert tags == ["O", "B-ORG", "I-ORG", "I-ORG", "I-ORG", "O", "O", "O", "O", "B-LOC", "I-LOC", "I-LOC", "I-LOC"], tags
    with tempfile.TemporaryDirectory() as tmp:
        doc = {"sents": [["German", "troops", "entered", "Paris", "."], ["Merkel", "spoke", "in", "1990", "."]],
               "vertexSet": [[{"name": "German", "pos": [0, 1], "sent_id": 0, "type": "LOC"}],
                             [{"name": "Paris", "pos": [3, 4], "sent_id": 0, "type": "LOC"}],
                             [{"name": "Merkel", "pos": [0, 1], "sent_id": 1, "type": "PER"}],
                             [{"name": "1990", "pos": [3, 4], "sent_id": 1, "type": "TIME"}]]}
        with open(os.path.join(tmp, "re.json"), "w") as f:
            json.dump([doc], f)
        [[first, second]] = read_redocred(os.path.join(tmp, "re.json"), {"German"})
        assert first[1] == ["O", "O", "O", "B-LOC", "O"], first
        assert second[1] == ["B-PER", "O", "O", "O", "O"], second
        with open(os.path.join(tmp, "wg.conll"), "w") as f:
            f.write("Bill I-PER\nGates I-PER\nof O\nMicrosoft I-ORG\nBritish I-MISC\n\n-DOCSTART- O\n\nIn O\nIraq I-LOC\n")
        docs = read_wikigold(os.path.join(tmp, "wg.conll"))
        assert [len(d) for d in docs] == [1, 1], docs
        assert docs[0][0][1] == ["B-PER", "I-PER", "O", "B-ORG", "O"], docs[0]
        assert docs[1][0][1] == ["O", "B-LOC"], docs[1]
        with open(os.path.join(tmp, "cn.txt"), "w") as f:
            f.write("The\tO\nLabour\tB-politicalparty\nParty\tI-politicalparty\nwon\tO\nthe\tO\n2010\tB-election\n"
                    "election\tI-election\nin\tO\nWales\tB-country\n")
        [(_, cn_tags)] = read_conll(os.path.join(tmp, "cn.txt"), "crossner")
        assert cn_tags == ["O", "B-ORG", "I-ORG", "O", "O", "O", "O", "O", "B-LOC"], cn_tags
    parts = split_documents([[("d%d" % i, [])] for i in range(7)])
    assert [len(parts[k]) for k in ("train", "valid", "test")] == [3, 2, 2], parts
    print("selftest: readers ok")


# ---------------------------------------------------------------- WordPiece vocabulary

def build_vocab(sentences, size):
    """Whole frequent words first, then the most frequent word starts and ##continuations, and every character."""
    counts = collections.Counter(w for tokens, _ in sentences for w in tokens)
    vocab = list(SPECIALS)
    seen = set(vocab)

    def add(t):
        if t not in seen:
            seen.add(t)
            vocab.append(t)

    chars = collections.Counter(c for w, n in counts.items() for c in w for _ in range(1))
    for c, n in chars.most_common():
        if n >= 2:
            add(c)
            add("##" + c)
    word_budget = int(size * 0.6)
    for w, n in counts.most_common():
        if len(vocab) >= word_budget or n < 3:
            break
        add(w)
    pieces = collections.Counter()
    for w, n in counts.items():
        if w in seen:
            continue
        for k in range(2, min(len(w), 6) + 1):
            pieces[w[:k]] += n
        for k in range(2, min(len(w) - 1, 5) + 1):
            pieces["##" + w[-k:]] += n
    for p, _ in pieces.most_common():
        if len(vocab) >= size:
            break
        add(p)
    return {t: i for i, t in enumerate(vocab)}


def wordpiece(word, vocab, cache):
    """Greedy longest-match-first, as the WordPiece model of tokenizers does."""
    if word in cache:
        return cache[word]
    if len(word) > 100:
        ids = [vocab["[UNK]"]]
    else:
        ids, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    found = vocab[piece]
                    break
                end -= 1
            if found is None:
                ids = [vocab["[UNK]"]]
                break
            ids.append(found)
            start = end
    cache[word] = ids
    return ids


def encode(sentences, vocab, max_len):
    cache, out = {}, []
    for tokens, tags in sentences:
        ids, labels = [vocab["[CLS]"]], [-100]
        for w, t in zip(tokens, tags):
            pieces = wordpiece(w, vocab, cache)
            if len(ids) + len(pieces) >= max_len - 1:
                break
            ids.extend(pieces)
            labels.extend([LABEL_ID[t]] + [-100] * (len(pieces) - 1))
        ids.append(vocab["[SEP]"])
        labels.append(-100)
        out.append((ids, labels))
    return out


# ---------------------------------------------------------------- model (BERT-shaped)

class Layer(nn.Module):
    def __init__(self, hidden, heads, inner, dropout):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.ff1 = nn.Linear(hidden, inner)
        self.ff2 = nn.Linear(inner, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, bias):
        b, s, h = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, h // self.heads).permute(2, 0, 3, 1, 4)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(h // self.heads) + bias, dim=-1)
        ctx = (self.drop(att) @ v).transpose(1, 2).reshape(b, s, h)
        x = self.ln1(x + self.drop(self.out(ctx)))
        return self.ln2(x + self.drop(self.ff2(F.gelu(self.ff1(x)))))


class Tagger(nn.Module):
    def __init__(self, vocab_size, hidden, layers, heads, inner, max_pos, dropout=0.1):
        super().__init__()
        self.word = nn.Embedding(vocab_size, hidden)
        self.pos = nn.Embedding(max_pos, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.ln = nn.LayerNorm(hidden, eps=1e-12)
        self.drop = nn.Dropout(dropout)
        self.layers = nn.ModuleList(Layer(hidden, heads, inner, dropout) for _ in range(layers))
        self.classifier = nn.Linear(hidden, len(LABELS))

    def forward(self, input_ids, attention_mask, token_type_ids):
        positions = torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)
        x = self.drop(self.ln(self.word(input_ids) + self.pos(positions) + self.token_type(token_type_ids)))
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        return self.classifier(x)


def batches(data, size, shuffle, rng):
    order = list(range(len(data)))
    if shuffle:
        rng.shuffle(order)
        # Similar lengths together (within chunks of 50 batches) to limit padding.
        chunks = [sorted(order[i:i + size * 50], key=lambda j: len(data[j][0])) for i in range(0, len(order), size * 50)]
        groups = [c[i:i + size] for c in chunks for i in range(0, len(c), size)]
        rng.shuffle(groups)
    else:
        groups = [order[i:i + size] for i in range(0, len(order), size)]
    for g in groups:
        width = max(len(data[j][0]) for j in g)
        ids = torch.zeros(len(g), width, dtype=torch.long)
        mask = torch.zeros(len(g), width, dtype=torch.long)
        labels = torch.full((len(g), width), -100, dtype=torch.long)
        for r, j in enumerate(g):
            n = len(data[j][0])
            ids[r, :n] = torch.tensor(data[j][0])
            mask[r, :n] = 1
            labels[r, :n] = torch.tensor(data[j][1])
        yield ids, mask, labels


def spans(tags):
    out, start, typ = set(), None, None
    for i, t in enumerate(list(tags) + ["O"]):
        p, _, ty = t.partition("-")
        if start is not None and (p != "I" or ty != typ):
            out.add((start, i, typ))
            start = None
        if p == "B" or (p == "I" and start is None):
            start, typ = i, ty
    return out


def evaluate(model, data):
    model.eval()
    tp = fp = fn = 0
    with torch.no_grad():
        for ids, mask, labels in batches(data, 64, False, None):
            pred = model(ids, mask, torch.zeros_like(ids)).argmax(-1)
            for r in range(ids.shape[0]):
                keep = labels[r] != -100
                gold = [LABELS[i] for i in labels[r][keep].tolist()]
                got = [LABELS[i] for i in pred[r][keep].tolist()]
                g, p = spans(gold), spans(got)
                tp += len(g & p)
                fp += len(p - g)
                fn += len(g - p)
    model.train()
    return 2 * tp / max(2 * tp + fp + fn, 1)


# ---------------------------------------------------------------- export

def tokenizer_json(vocab, max_pos):
    special = lambda t: {"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                         "normalized": False, "special": True}
    tok = lambda t, type_id=0: {"SpecialToken": {"id": t, "type_id": type_id}}
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [special(t) for t in SPECIALS],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": False},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [tok("[CLS]"), {"Sequence": {"id": "A", "type_id": 0}}, tok("[SEP]")],
            "pair": [tok("[CLS]"), {"Sequence": {"id": "A", "type_id": 0}}, tok("[SEP]"),
                     {"Sequence": {"id": "B", "type_id": 1}}, tok("[SEP]", 1)],
            "special_tokens": {t: {"id": t, "ids": [vocab[t]], "tokens": [t]} for t in ("[CLS]", "[SEP]")},
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab},
    }


def quantize_weights(path_in, path_out, min_elements=4096):
    """Weight-only int8: each large float initializer becomes int8 + scale and a DequantizeLinear node (4x smaller file)."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper
    model = onnx.load(path_in)
    graph = model.graph
    kept, nodes = [], []
    for init in graph.initializer:
        w = numpy_helper.to_array(init)
        if w.dtype != np.float32 or w.ndim != 2 or w.size < min_elements:
            kept.append(init)
            continue
        # One scale per output column of a MatMul weight ([in, out]), per row of an embedding table.
        axis = 1 if "MatMul" in init.name or init.name.startswith("onnx::MatMul") else 0
        scale = np.maximum(np.abs(w).max(axis=1 - axis), 1e-8) / 127.0
        q = np.clip(np.round(w / (scale[None, :] if axis == 1 else scale[:, None])), -127, 127).astype(np.int8)
        kept.append(numpy_helper.from_array(q, init.name + "_quantized"))
        kept.append(numpy_helper.from_array(scale.astype(np.float32), init.name + "_scale"))
        kept.append(numpy_helper.from_array(np.zeros(scale.shape, dtype=np.int8), init.name + "_zero_point"))
        nodes.append(helper.make_node("DequantizeLinear", [init.name + "_quantized", init.name + "_scale", init.name + "_zero_point"],
                                      [init.name], name=init.name + "_dequantize", axis=axis))
    del graph.initializer[:]
    graph.initializer.extend(kept)
    existing = list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes + existing)
    onnx.checker.check_model(model)
    onnx.save(model, path_out)


def export(model, vocab, args, meta):
    os.makedirs(os.path.join(args.out, "onnx"), exist_ok=True)
    model.eval()
    ids = torch.tensor([[vocab["[CLS]"], 10, 11, 12, vocab["[SEP]"]]])
    fp32 = os.path.join(args.work, "model.onnx")
    torch.onnx.export(model, (ids, torch.ones_like(ids), torch.zeros_like(ids)), fp32,
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["logits"],
                      dynamic_axes={n: {0: "batch_size", 1: "sequence_length"} for n in ("input_ids", "attention_mask", "token_type_ids", "logits")},
                      opset_version=14, do_constant_folding=True)
    quantize_weights(fp32, os.path.join(args.out, "onnx", "model_quantized.onnx"))
    config = {
        "_name_or_path": "parley-ner-small",
        "architectures": ["BertForTokenClassification"],
        "model_type": "bert",
        "vocab_size": len(vocab), "hidden_size": args.hidden, "num_hidden_layers": args.layers,
        "num_attention_heads": args.heads, "intermediate_size": args.inner, "hidden_act": "gelu",
        "max_position_embeddings": args.max_len, "type_vocab_size": 2, "layer_norm_eps": 1e-12,
        "id2label": {str(i): l for i, l in enumerate(LABELS)}, "label2id": LABEL_ID,
        "parley_training": meta,
    }
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(args.out, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(vocab, args.max_len), f, ensure_ascii=False)
    with open(os.path.join(args.out, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "BertTokenizer", "do_lower_case": False, "model_max_length": args.max_len,
                   "unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
                   "mask_token": "[MASK]"}, f, indent=2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--selftest", action="store_true", help="check the data readers on inline examples and exit")
    ap.add_argument("--data")
    ap.add_argument("--names", help="JSON from export-names.ts")
    ap.add_argument("--out")
    ap.add_argument("--work", default="/tmp")
    ap.add_argument("--synthetic", type=int, default=8000)
    ap.add_argument("--vocab", type=int, default=8000)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=2)
    ap.add_argument("--inner", type=int, default=256)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=6e-4)
    ap.add_argument("--epochs", type=int, default=100)
    ap.add_argument("--minutes", type=float, default=25)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--news-weight", type=int, default=2,
                    help="times each news and encyclopedic sentence (Re-DocRED, wikigold, CrossNER) is seen per epoch; "
                         "0 leaves them out of training and validation (the data of the shipped model)")
    ap.add_argument("--resume", help="checkpoint.pt of an earlier run: its vocabulary, shape and weights, trained on for --minutes more")
    ap.add_argument("--no-sharealike", action="store_true",
                    help="leave out UNER EWT (CC BY-SA 4.0) and the Wikipedia text of Re-DocRED, wikigold and CrossNER (CC BY-SA), "
                         "so that the weights carry only CC BY 4.0 attribution duties")
    args = ap.parse_args()
    if args.selftest:
        selftest()
        return
    if not (args.data and args.names and args.out):
        ap.error("--data, --names and --out are required")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)

    d = args.data
    with open(args.names) as f:
        names = json.load(f)
    train = read_conll(f"{d}/btc/btc.train", "btc") + read_conll(f"{d}/wnut17/wnut17train.conll", "wnut")
    if not args.no_sharealike:
        train += read_conll(f"{d}/uner_en_ewt/en_ewt-ud-dev.iob2", "uner")
    # News and encyclopedic text, nearer the register parley reads than tweets. Held out and never trained on:
    # Re-DocRED test, CrossNER politics test, wikigold's every fifth document, and all of UNER English-PUD.
    wikigold = split_documents(read_wikigold(f"{d}/wikigold/wikigold.conll.txt"))
    news = ([s for doc in read_redocred(f"{d}/redocred/dev_revised.json", set(names["demonyms"])) for s in doc]
            + wikigold["train"] + read_conll(f"{d}/crossner_politics/train.txt", "crossner"))
    if args.no_sharealike or args.news_weight == 0:
        # Their labels are MIT or CC BY 4.0, but their text is Wikipedia's (CC BY-SA).
        news = []
    train += news * args.news_weight
    synthetic = generate(names, args.synthetic, seed=args.seed)
    valid = read_conll(f"{d}/btc/btc.dev", "btc") + read_conll(f"{d}/wnut17/emerging.dev.conll", "wnut")
    if news:
        valid += read_conll(f"{d}/crossner_politics/dev.txt", "crossner") + wikigold["valid"]
    print(f"train: {len(train)} public ({len(news)} news and encyclopedic, x{args.news_weight}) + {len(synthetic)} synthetic sentences; "
          f"validation {len(valid)}", flush=True)
    resumed = torch.load(args.resume) if args.resume else None
    if resumed:
        # The shape is the checkpoint's, whatever the arguments say.
        for key in ("hidden", "layers", "heads", "inner", "max_len"):
            setattr(args, key, resumed["args"][key])
    vocab = resumed["vocab"] if resumed else build_vocab(train + synthetic, args.vocab)
    print(f"vocab {len(vocab)}", flush=True)
    train_data = encode(train + synthetic, vocab, args.max_len)
    valid_data = encode(valid, vocab, args.max_len)
    synth_valid = encode(generate(names, 500, seed=args.seed + 1), vocab, args.max_len)

    model = Tagger(len(vocab), args.hidden, args.layers, args.heads, args.inner, args.max_len)
    if resumed:
        model.load_state_dict(resumed["state"])
    print(f"parameters {sum(p.numel() for p in model.parameters()):,}", flush=True)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = 300
    started = time.time()
    # Linear decay over the wall-clock budget rather than over a step count: the machines are
    # shared, so how many steps fit in the budget is not known in advance.
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warmup, max(0.02, 1 - (time.time() - started) / (60 * args.minutes))))
    # Entity tokens are rare; weigh them up a little so recall does not collapse to "O".
    weights = torch.tensor([1.0] + [2.0] * (len(LABELS) - 1))
    unk = vocab["[UNK]"]
    best, best_state, epoch = -1.0, None, 0
    if resumed:
        # The checkpoint itself is the score to beat.
        best, best_state = evaluate(model, valid_data) + 0.5 * evaluate(model, synth_valid), resumed["state"]
    for epoch in range(1, args.epochs + 1):
        loss_sum = n = 0
        for ids, mask, labels in batches(train_data, args.batch, True, rng):
            # Word dropout: the model must also read names it has no token for from context.
            drop = (torch.rand(ids.shape) < 0.05) & (mask == 1) & (ids > len(SPECIALS))
            ids = ids.masked_fill(drop, unk)
            logits = model(ids, mask, torch.zeros_like(ids))
            loss = F.cross_entropy(logits.view(-1, len(LABELS)), labels.view(-1), weight=weights, ignore_index=-100)
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            loss_sum += loss.item()
            n += 1
            if n % 200 == 0:
                print(f"  step {n} loss {loss_sum / n:.4f} ({(time.time() - started) / 60:.1f} min)", flush=True)
            if time.time() - started > 60 * args.minutes:
                break
        f1 = evaluate(model, valid_data)
        sf1 = evaluate(model, synth_valid)
        minutes = (time.time() - started) / 60
        print(f"epoch {epoch} loss {loss_sum / n:.4f} valid F1 {f1:.3f} synthetic F1 {sf1:.3f} ({minutes:.1f} min)", flush=True)
        score = f1 + 0.5 * sf1
        if score > best:
            best, best_state = score, {k: v.clone() for k, v in model.state_dict().items()}
        if time.time() - started > 60 * args.minutes:
            break
    model.load_state_dict(best_state)
    torch.save({"state": best_state, "vocab": vocab, "args": vars(args), "epochs": epoch + (resumed.get("epochs", 0) if resumed else 0)},
               os.path.join(args.work, "checkpoint.pt"))
    meta = {"sources": ["btc train", "wnut17 train"] + ([] if args.no_sharealike else ["uner en_ewt dev"])
            + (["redocred dev", "wikigold (documents 2-4 of every 5)", "crossner politics train"] if news else [])
            + ["synthetic"],
            "public_sentences": len(train), "synthetic_sentences": len(synthetic), "epochs": epoch + (resumed.get("epochs", 0) if resumed else 0),
            "validation_f1": round(evaluate(model, valid_data), 3), "seed": args.seed}
    export(model, vocab, args, meta)
    print(json.dumps(meta), flush=True)


if __name__ == "__main__":
    main()
