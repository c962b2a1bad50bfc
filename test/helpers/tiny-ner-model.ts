import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';

/**
 * Builds a small BERT-shaped token-classification model on disk, so that the neural
 * extraction path (tokenizer, ONNX runtime, id2label, BIO grouping, worker pool) runs
 * for real without the network. Weights are random from a seed, except that the words
 * in `taggedWords` are wired to their label, which lets tests assert exact entities.
 *
 * Graph: Gather(word embeddings) + Gather(token type embeddings) → × attention mask →
 * [feed-forward blocks] → MatMul → Add → logits [batch, sequence, labels]; the sequence
 * classifier (claim typing, NLI) sums over the tokens first: logits [batch, labels]. The
 * first `labels.length` hidden dimensions are label indicators: the classifier maps
 * indicator k to label k, the other dimensions carry small random weights, and the first
 * label gets a bias, so untagged input falls back to it ("O").
 */

export const TINY_NER_LABELS = ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC', 'B-MISC', 'I-MISC'] as const;

export interface TinyNerModelOptions {
  /** Directory to write into; a fresh temporary directory when absent. */
  dir?: string;
  seed?: number;
  /** Whole words added to the vocabulary (one token each). */
  words?: readonly string[];
  /** Word → label ("B-PER", "I-ORG", ...); each word is added to the vocabulary and predicted with that label. */
  taggedWords?: Readonly<Record<string, string>>;
  /** Scale of the random weights; large values make the untagged predictions random across all labels. */
  noise?: number;
  /** Written to config.json; small values force the windowing of long sentences. */
  maxPositionEmbeddings?: number;
  /** onnx/model_quantized.onnx (default) or onnx/model.onnx. */
  fileName?: 'model_quantized.onnx' | 'model.onnx';
  /** Width of the token vectors (default 24). */
  hiddenSize?: number;
  /**
   * Residual feed-forward blocks (MatMul → Tanh → MatMul → Add) between the embeddings and the
   * classifier, sharing one pair of weight matrices, so that benchmarks can give the model the
   * arithmetic of a real encoder without writing hundreds of megabytes (default none).
   */
  feedForward?: { blocks: number; innerSize: number };
}

export interface TinyNerModel {
  dir: string;
  labels: readonly string[];
  vocab: ReadonlyMap<string, number>;
  remove(): Promise<void>;
}

const DEFAULT_HIDDEN_SIZE = 24;
/** Feed-forward weights stay small so that the label indicators still decide the tagged words. */
const FEED_FORWARD_SCALE = 0.05;
const TAGGED_ACTIVATION = 4;
const O_BIAS = 1;
const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
const DEFAULT_WORDS = [
  'the', 'a', 'of', 'in', 'on', 'and', 'to', 'said', 'that', 'was', 'were', 'forces', 'army', 'city', 'near',
  'attack', 'attacked', 'killed', 'people', 'government', 'rebels', 'talks', 'ceasefire', 'president', 'general',
];

/** ONNX enum values used below (onnx.proto: TensorProto.DataType, AttributeProto.AttributeType). */
const FLOAT = 1;
const INT64 = 7;
const ATTRIBUTE_INT = 2;

/** The subset of onnx.proto this builder writes, declared with protobufjs reflection. */
const onnxRoot = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            ir_version: { type: 'int64', id: 1 },
            producer_name: { type: 'string', id: 2 },
            graph: { type: 'GraphProto', id: 7 },
            opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            op_type: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
          },
        },
        AttributeProto: {
          fields: { name: { type: 'string', id: 1 }, i: { type: 'int64', id: 3 }, type: { type: 'int32', id: 20 } },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            data_type: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            raw_data: { type: 'bytes', id: 9 },
          },
        },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: { fields: { tensor_type: { type: 'TensorTypeProto', id: 1 } } },
        TensorTypeProto: { fields: { elem_type: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        Dimension: { fields: { dim_value: { type: 'int64', id: 1 }, dim_param: { type: 'string', id: 2 } } },
      },
    },
  },
});

/** mulberry32: a tiny seeded generator, so the same seed always writes the same weights. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildVocabulary(words: readonly string[]): Map<string, number> {
  const vocab = new Map<string, number>();
  const add = (token: string) => {
    if (!vocab.has(token)) vocab.set(token, vocab.size);
  };
  SPECIAL_TOKENS.forEach(add);
  words.forEach(add);
  // Every printable ASCII character, alone and as a continuation, so that any ASCII word
  // tokenizes; a word with a character outside this set becomes [UNK] as in real BERT vocabularies.
  for (let code = 33; code <= 126; code++) add(String.fromCharCode(code));
  for (let code = 33; code <= 126; code++) add('##' + String.fromCharCode(code));
  return vocab;
}

function tensor(name: string, dims: number[], values: Float32Array) {
  return { name, dims, data_type: FLOAT, raw_data: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) };
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]) {
  return {
    name,
    type: {
      tensor_type: {
        elem_type: elemType,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dim_param: d } : { dim_value: d })) },
      },
    },
  };
}

interface GraphShape {
  /** token: logits per token [batch, sequence, labels]; sequence: summed over the tokens [batch, labels]. */
  head: 'token' | 'sequence';
  labelCount: number;
  hiddenSize: number;
  noise: number;
  seed: number;
  feedForward: { blocks: number; innerSize: number } | undefined;
}

function buildOnnxModel(vocab: Map<string, number>, taggedIds: Map<number, number>, shape: GraphShape): Uint8Array {
  const random = seededRandom(shape.seed);
  const noise = shape.noise;
  const uniform = () => (random() * 2 - 1) * noise;
  const labelCount = shape.labelCount;
  const hiddenSize = shape.hiddenSize;
  if (hiddenSize <= labelCount) throw new Error(`hiddenSize must exceed the ${labelCount} label indicator dimensions`);

  const wordEmbeddings = new Float32Array(vocab.size * hiddenSize);
  for (let id = 0; id < vocab.size; id++) {
    for (let h = labelCount; h < hiddenSize; h++) wordEmbeddings[id * hiddenSize + h] = uniform();
    const label = taggedIds.get(id);
    if (label !== undefined) wordEmbeddings[id * hiddenSize + label] = TAGGED_ACTIVATION;
  }
  const typeEmbeddings = new Float32Array(2 * hiddenSize).map(() => uniform() / 4);
  const classifierWeight = new Float32Array(hiddenSize * labelCount);
  for (let h = 0; h < hiddenSize; h++) {
    for (let k = 0; k < labelCount; k++) {
      classifierWeight[h * labelCount + k] = h < labelCount ? (h === k ? 1 : 0) : uniform();
    }
  }
  const classifierBias = new Float32Array(labelCount);
  classifierBias[0] = O_BIAS;
  const blocks = shape.feedForward?.blocks ?? 0;
  const innerSize = shape.feedForward?.innerSize ?? 0;
  const feedForwardWeights = (rows: number, cols: number) =>
    new Float32Array(rows * cols).map(() => ((random() * 2 - 1) * FEED_FORWARD_SCALE) / Math.sqrt(rows));

  const node = (op_type: string, input: string[], output: string, attribute: object[] = []) => ({
    op_type,
    input,
    output: [output],
    name: output,
    attribute,
  });
  const pooled = shape.head === 'sequence';
  const graph = {
    name: pooled ? 'tiny_bert_sequence_classification' : 'tiny_bert_token_classification',
    input: [
      valueInfo('input_ids', INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', INT64, ['batch_size', 'sequence_length']),
      valueInfo('token_type_ids', INT64, ['batch_size', 'sequence_length']),
    ],
    output: [valueInfo('logits', FLOAT, pooled ? ['batch_size', labelCount] : ['batch_size', 'sequence_length', labelCount])],
    initializer: [
      tensor('word_embeddings', [vocab.size, hiddenSize], wordEmbeddings),
      tensor('token_type_embeddings', [2, hiddenSize], typeEmbeddings),
      tensor('classifier_weight', [hiddenSize, labelCount], classifierWeight),
      tensor('classifier_bias', [labelCount], classifierBias),
      { name: 'last_axis', dims: [1], data_type: INT64, raw_data: new Uint8Array(new BigInt64Array([-1n]).buffer) },
      { name: 'sequence_axis', dims: [1], data_type: INT64, raw_data: new Uint8Array(new BigInt64Array([1n]).buffer) },
      ...(blocks > 0
        ? [
            tensor('feed_forward_in', [hiddenSize, innerSize], feedForwardWeights(hiddenSize, innerSize)),
            tensor('feed_forward_out', [innerSize, hiddenSize], feedForwardWeights(innerSize, hiddenSize)),
          ]
        : []),
    ],
    node: [
      node('Gather', ['word_embeddings', 'input_ids'], 'word_vectors'),
      node('Gather', ['token_type_embeddings', 'token_type_ids'], 'type_vectors'),
      node('Add', ['word_vectors', 'type_vectors'], 'embeddings'),
      node('Cast', ['attention_mask'], 'mask_float', [{ name: 'to', type: ATTRIBUTE_INT, i: FLOAT }]),
      node('Unsqueeze', ['mask_float', 'last_axis'], 'mask_column'),
      node('Mul', ['embeddings', 'mask_column'], 'hidden_0'),
      ...Array.from({ length: blocks }, (_, b) => [
        node('MatMul', [`hidden_${b}`, 'feed_forward_in'], `inner_${b}`),
        node('Tanh', [`inner_${b}`], `activated_${b}`),
        node('MatMul', [`activated_${b}`, 'feed_forward_out'], `delta_${b}`),
        node('Add', [`hidden_${b}`, `delta_${b}`], `hidden_${b + 1}`),
      ]).flat(),
      ...(pooled ? [node('ReduceSum', [`hidden_${blocks}`, 'sequence_axis'], 'features', [{ name: 'keepdims', type: ATTRIBUTE_INT, i: 0 }])] : []),
      node('MatMul', [pooled ? 'features' : `hidden_${blocks}`, 'classifier_weight'], 'projected'),
      node('Add', ['projected', 'classifier_bias'], 'logits'),
    ],
  };
  const ModelProto = onnxRoot.lookupType('onnx.ModelProto');
  const model = { ir_version: 8, producer_name: 'parley-test', graph, opset_import: [{ domain: '', version: 14 }] };
  const problem = ModelProto.verify(model);
  if (problem) throw new Error(`tiny model does not match the ONNX schema: ${problem}`);
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}

function buildTokenizerJson(vocab: Map<string, number>): object {
  const special = (content: string) => ({
    id: vocab.get(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const specialToken = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: false },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [specialToken('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, specialToken('[SEP]')],
      pair: [
        specialToken('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        specialToken('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [vocab.get(t)], tokens: [t] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab),
    },
  };
}

interface ModelFolder {
  dir: string | undefined;
  name: string;
  architecture: string;
  labels: readonly string[];
  taggedWords: Readonly<Record<string, string>>;
  words: readonly string[];
  shape: Omit<GraphShape, 'labelCount'>;
  maxPositionEmbeddings: number;
  fileName: string;
}

async function writeModelFolder(folder: ModelFolder): Promise<TinyNerModel> {
  const dir = folder.dir ?? (await mkdtemp(join(tmpdir(), `${folder.name}-`)));
  const vocab = buildVocabulary([...DEFAULT_WORDS, ...folder.words, ...Object.keys(folder.taggedWords)]);
  const taggedIds = new Map<number, number>();
  for (const [word, label] of Object.entries(folder.taggedWords)) {
    const labelIndex = folder.labels.indexOf(label);
    if (labelIndex < 0) throw new Error(`unknown label ${label} for tagged word ${word}`);
    taggedIds.set(vocab.get(word)!, labelIndex);
  }
  const config = {
    _name_or_path: folder.name,
    architectures: [folder.architecture],
    model_type: 'bert',
    hidden_size: folder.shape.hiddenSize,
    vocab_size: vocab.size,
    type_vocab_size: 2,
    max_position_embeddings: folder.maxPositionEmbeddings,
    id2label: Object.fromEntries(folder.labels.map((label, i) => [String(i), label])),
    label2id: Object.fromEntries(folder.labels.map((label, i) => [label, i])),
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: false,
    model_max_length: folder.maxPositionEmbeddings,
    unk_token: '[UNK]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    mask_token: '[MASK]',
  };
  await mkdir(join(dir, 'onnx'), { recursive: true });
  await Promise.all([
    writeFile(join(dir, 'config.json'), JSON.stringify(config, null, 2)),
    writeFile(join(dir, 'tokenizer.json'), JSON.stringify(buildTokenizerJson(vocab))),
    writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2)),
    writeFile(join(dir, 'onnx', folder.fileName), buildOnnxModel(vocab, taggedIds, { ...folder.shape, labelCount: folder.labels.length })),
  ]);
  return { dir, labels: folder.labels, vocab, remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function buildTinyNerModel(options: TinyNerModelOptions = {}): Promise<TinyNerModel> {
  return writeModelFolder({
    dir: options.dir,
    name: 'parley-tiny-ner',
    architecture: 'BertForTokenClassification',
    labels: TINY_NER_LABELS,
    taggedWords: options.taggedWords ?? {},
    words: options.words ?? [],
    shape: {
      head: 'token',
      hiddenSize: options.hiddenSize ?? DEFAULT_HIDDEN_SIZE,
      noise: options.noise ?? 0.5,
      seed: options.seed ?? 1,
      feedForward: options.feedForward,
    },
    maxPositionEmbeddings: options.maxPositionEmbeddings ?? 512,
    fileName: options.fileName ?? 'model_quantized.onnx',
  });
}

export interface TinySequenceClassifierOptions {
  /** id2label in order; the first label gets the bias that untagged text falls back to. */
  labels: readonly string[];
  /** Word → label: text containing the word leans to that label (the model sums its token vectors). */
  taggedWords?: Readonly<Record<string, string>>;
  words?: readonly string[];
  noise?: number;
  seed?: number;
}

/** A BERT-shaped sequence-classification model (text classification, or NLI for zero-shot), built like the NER model. */
export async function buildTinySequenceClassifier(options: TinySequenceClassifierOptions): Promise<TinyNerModel> {
  return writeModelFolder({
    dir: undefined,
    name: 'parley-tiny-classifier',
    architecture: 'BertForSequenceClassification',
    labels: options.labels,
    taggedWords: options.taggedWords ?? {},
    words: options.words ?? [],
    shape: {
      head: 'sequence',
      hiddenSize: Math.max(DEFAULT_HIDDEN_SIZE, options.labels.length + 8),
      noise: options.noise ?? 0,
      seed: options.seed ?? 1,
      feedForward: undefined,
    },
    maxPositionEmbeddings: 512,
    fileName: 'model_quantized.onnx',
  });
}
