import {
  AutoModelForTokenClassification,
  AutoTokenizer,
  env,
  Tensor,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { NerModelUnavailableError, type NerModelFiles } from './model-dir.ts';
import { planWindows } from './windows.ts';

/**
 * The model itself: words in, one label and probability per word out. Runs inside a pool
 * worker (worker-task.ts) or, for benchmarks and tools, on the calling thread. Each word is
 * tokenized on its own (see words.ts), sentences longer than the model's input are cut into
 * windows of whole words, and windows of similar length are batched to limit padding.
 */

/** Labels and probabilities of one sentence's words, in word order. */
export interface SentenceLabels {
  labels: string[];
  scores: number[];
}

/** One ONNX intra-op thread per session: parallelism comes from the workers, and more ONNX threads than cores made throughput fall by half. */
const ONNX_THREADS = 1;
/** Sequences in one model call; with the padded-token cap below it bounds the attention tensors of one batch. */
const MAX_BATCH_SEQUENCES = 16;
const MAX_BATCH_TOKENS = 4096;
/** Distinct words whose token ids are remembered; the cache is dropped whole when full. */
const TOKEN_CACHE_LIMIT = 50_000;

/** Never fetch from the hub at inference time: the model folder is configuration. */
env.allowRemoteModels = false;
env.allowLocalModels = true;

interface Sequence {
  sentence: number;
  /** Index of the window's first word in its sentence. */
  firstWord: number;
  ids: number[];
  /** Position in `ids` of each word's first token, or -1 for a word without tokens. */
  wordPositions: number[];
}

export class TokenClassifier {
  private readonly tokenCache = new Map<string, number[]>();

  private constructor(
    readonly files: NerModelFiles,
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly model: PreTrainedModel,
    /** Special tokens around one sequence ([CLS] … [SEP] for BERT), found by encoding a probe. */
    private readonly prefixIds: number[],
    private readonly suffixIds: number[],
  ) {}

  static async load(files: NerModelFiles): Promise<TokenClassifier> {
    try {
      const tokenizer = await AutoTokenizer.from_pretrained(files.dir, { local_files_only: true });
      const model = await AutoModelForTokenClassification.from_pretrained(files.dir, {
        local_files_only: true,
        dtype: files.dtype,
        session_options: { intraOpNumThreads: ONNX_THREADS, interOpNumThreads: ONNX_THREADS },
      });
      const bare = tokenizer.encode('a', { add_special_tokens: false });
      const framed = tokenizer.encode('a', { add_special_tokens: true });
      const at = framed.findIndex((_, i) => bare.every((id, j) => framed[i + j] === id));
      if (bare.length === 0 || at < 0) throw new Error('the tokenizer does not reproduce a probe word inside its special tokens');
      return new TokenClassifier(files, tokenizer, model, framed.slice(0, at), framed.slice(at + bare.length));
    } catch (cause) {
      throw new NerModelUnavailableError('load_failed', files.dir, `NER model in ${files.dir} failed to load: ${(cause as Error).message}`, [], { cause });
    }
  }

  private tokenIds(word: string): number[] {
    let ids = this.tokenCache.get(word);
    if (!ids) {
      ids = this.tokenizer.encode(word, { add_special_tokens: false });
      if (this.tokenCache.size >= TOKEN_CACHE_LIMIT) this.tokenCache.clear();
      this.tokenCache.set(word, ids);
    }
    return ids;
  }

  private sequencesOf(sentences: readonly (readonly string[])[]): Sequence[] {
    const budget = this.files.maxPositions - this.prefixIds.length - this.suffixIds.length;
    const sequences: Sequence[] = [];
    sentences.forEach((words, sentence) => {
      const wordIds = words.map((w) => this.tokenIds(w));
      for (const window of planWindows(wordIds.map((ids) => ids.length), budget)) {
        const ids = [...this.prefixIds];
        const wordPositions: number[] = [];
        for (let w = window.from; w < window.to; w++) {
          const tokens = wordIds[w]!;
          wordPositions.push(tokens.length > 0 ? ids.length : -1);
          ids.push(...tokens.slice(0, budget));
        }
        ids.push(...this.suffixIds);
        sequences.push({ sentence, firstWord: window.from, ids, wordPositions });
      }
    });
    return sequences;
  }

  private batchesOf(sequences: Sequence[]): Sequence[][] {
    const byLength = [...sequences].sort((a, b) => a.ids.length - b.ids.length);
    const batches: Sequence[][] = [];
    let batch: Sequence[] = [];
    for (const sequence of byLength) {
      const paddedTokens = (batch.length + 1) * sequence.ids.length;
      if (batch.length > 0 && (batch.length === MAX_BATCH_SEQUENCES || paddedTokens > MAX_BATCH_TOKENS)) {
        batches.push(batch);
        batch = [];
      }
      batch.push(sequence);
    }
    if (batch.length > 0) batches.push(batch);
    return batches;
  }

  private async labelBatch(batch: Sequence[], result: SentenceLabels[]): Promise<void> {
    const width = Math.max(...batch.map((s) => s.ids.length));
    const inputIds = new BigInt64Array(batch.length * width).fill(BigInt(this.tokenizer.pad_token_id ?? 0));
    const attentionMask = new BigInt64Array(batch.length * width);
    batch.forEach((sequence, row) => {
      sequence.ids.forEach((id, col) => {
        inputIds[row * width + col] = BigInt(id);
        attentionMask[row * width + col] = 1n;
      });
    });
    const output = await this.model({
      input_ids: new Tensor('int64', inputIds, [batch.length, width]),
      attention_mask: new Tensor('int64', attentionMask, [batch.length, width]),
    });
    const logits = output.logits as Tensor;
    const labelCount = logits.dims[2]!;
    const data = logits.data as Float32Array;
    const labels = this.files.labels;
    batch.forEach((sequence, row) => {
      const target = result[sequence.sentence]!;
      sequence.wordPositions.forEach((position, offset) => {
        const word = sequence.firstWord + offset;
        if (position < 0) {
          target.labels[word] = 'O';
          target.scores[word] = 1;
          return;
        }
        const base = (row * width + position) * labelCount;
        let best = 0;
        let max = -Infinity;
        for (let k = 0; k < labelCount; k++) {
          if (data[base + k]! > max) {
            max = data[base + k]!;
            best = k;
          }
        }
        let sum = 0;
        for (let k = 0; k < labelCount; k++) sum += Math.exp(data[base + k]! - max);
        target.labels[word] = labels[best] ?? `LABEL_${best}`;
        target.scores[word] = 1 / sum;
      });
    });
    output.logits.dispose?.();
  }

  /** Label of every word of every sentence; a sentence is its words in order. */
  async classify(sentences: readonly (readonly string[])[]): Promise<SentenceLabels[]> {
    const result: SentenceLabels[] = sentences.map((words) => ({
      labels: new Array<string>(words.length),
      scores: new Array<number>(words.length),
    }));
    for (const batch of this.batchesOf(this.sequencesOf(sentences))) await this.labelBatch(batch, result);
    return result;
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}
