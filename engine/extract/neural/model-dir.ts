import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A token-classification model folder as transformers.js reads it offline: config.json
 * (with id2label), tokenizer.json, and ONNX weights under onnx/. Checked before any worker
 * starts, so that a wrong PARLEY_NER_MODEL_DIR gives one clear message and the pipeline
 * falls back to the symbolic layer.
 */

export type NerModelProblem = 'missing_files' | 'invalid_config' | 'load_failed';

export class NerModelUnavailableError extends Error {
  constructor(
    readonly problem: NerModelProblem,
    readonly modelDir: string,
    message: string,
    /** Files the folder lacks, relative to it. */
    readonly missing: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'NerModelUnavailableError';
  }
}

/** transformers.js dtype and the weight file it selects, in order of preference on CPU. */
const WEIGHT_FILES = [
  { dtype: 'q8', file: 'onnx/model_quantized.onnx' },
  { dtype: 'fp32', file: 'onnx/model.onnx' },
  { dtype: 'int8', file: 'onnx/model_int8.onnx' },
  { dtype: 'uint8', file: 'onnx/model_uint8.onnx' },
] as const;

export type NerModelDtype = (typeof WEIGHT_FILES)[number]['dtype'];

export interface NerModelFiles {
  dir: string;
  dtype: NerModelDtype;
  /** The weight file, relative to `dir`. */
  weights: string;
  labels: readonly string[];
  /** Positions the model accepts, special tokens included. */
  maxPositions: number;
  /** "name@sha256:<12 hex of the weights>": identifies the exact model in extraction results. */
  model: string;
}

const DEFAULT_MAX_POSITIONS = 512;

/**
 * The entity recogniser shipped in the repository (trained by bench/train-ner/train.py, model
 * card in bench/train-ner/README.md): what the service runs when PARLEY_NER_MODEL_DIR is unset.
 */
export const SHIPPED_NER_MODEL_DIR = fileURLToPath(new URL('./model/', import.meta.url));
/** Written by `npm run models:pull`: where the folder came from. */
export const PULL_RECORD_FILE = 'parley-model.json';

export interface PullRecord {
  /** Hugging Face model id. */
  model: string;
  revision: string;
  dtype: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function labelsOf(config: Record<string, unknown>): string[] | null {
  const id2label = config.id2label;
  if (!id2label || typeof id2label !== 'object') return null;
  const entries = Object.entries(id2label as Record<string, unknown>);
  const labels: string[] = [];
  for (const [key, value] of entries) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || index >= entries.length || typeof value !== 'string') return null;
    labels[index] = value;
  }
  return labels.length >= 2 && labels.every((l) => typeof l === 'string') ? labels : null;
}

/** The hub id a pulled folder came from; exports often carry the name of the model they were converted from instead. */
async function pulledModelName(dir: string): Promise<string | undefined> {
  try {
    const record = JSON.parse(await readFile(join(dir, PULL_RECORD_FILE), 'utf8')) as Partial<PullRecord>;
    return typeof record.model === 'string' && record.model !== '' ? record.model : undefined;
  } catch {
    return undefined;
  }
}

/** What a model folder is for, in error messages. */
export interface ModelPurpose {
  role: string;
  setting: string;
  kind: string;
}

export const NER_MODEL_PURPOSE: ModelPurpose = { role: 'NER', setting: 'PARLEY_NER_MODEL_DIR', kind: 'a token-classification model' };

export async function inspectNerModelDir(modelDir: string, purpose: ModelPurpose = NER_MODEL_PURPOSE): Promise<NerModelFiles> {
  const dir = resolve(modelDir);
  const missing: string[] = [];
  for (const file of ['config.json', 'tokenizer.json']) {
    if (!(await exists(join(dir, file)))) missing.push(file);
  }
  let weights: (typeof WEIGHT_FILES)[number] | undefined;
  for (const candidate of WEIGHT_FILES) {
    if (await exists(join(dir, candidate.file))) {
      weights = candidate;
      break;
    }
  }
  if (!weights) missing.push(WEIGHT_FILES.map((w) => w.file).join(' or '));
  if (missing.length > 0 || !weights) {
    throw new NerModelUnavailableError(
      'missing_files',
      dir,
      `${purpose.role} model folder ${dir} lacks ${missing.join(', ')}; run \`npm run models:pull\` or point ${purpose.setting} at ${purpose.kind} exported to ONNX`,
      missing,
    );
  }

  let config: Record<string, unknown>;
  try {
    config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  } catch (cause) {
    throw new NerModelUnavailableError('invalid_config', dir, `${purpose.role} model config ${join(dir, 'config.json')} is not valid JSON`, [], { cause });
  }
  const labels = labelsOf(config);
  if (!labels) {
    throw new NerModelUnavailableError(
      'invalid_config',
      dir,
      `${purpose.role} model config ${join(dir, 'config.json')} has no usable id2label (indices 0..n-1 mapped to label names)`,
    );
  }
  const maxPositions =
    typeof config.max_position_embeddings === 'number' && config.max_position_embeddings > 2
      ? config.max_position_embeddings
      : DEFAULT_MAX_POSITIONS;
  const name = (await pulledModelName(dir)) ?? (typeof config._name_or_path === 'string' && config._name_or_path !== '' ? config._name_or_path : basename(dir));
  const digest = await sha256OfFile(join(dir, weights.file));
  return {
    dir,
    dtype: weights.dtype,
    weights: weights.file,
    labels,
    maxPositions: Math.min(maxPositions, DEFAULT_MAX_POSITIONS),
    model: `${name}@sha256:${digest.slice(0, 12)}`,
  };
}
