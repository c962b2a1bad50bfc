import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { inspectNerModelDir, PULL_RECORD_FILE, type PullRecord } from './model-dir.ts';

/**
 * `npm run models:pull [-- --model <hub id>] [--dtype q8|fp32] [--revision <rev>]`
 *
 * The one place where parley reaches the Hugging Face hub: it downloads a public
 * token-classification model exported to ONNX into `${PARLEY_DATA_DIR:-./data}/models/<id>`
 * and prints the PARLEY_NER_MODEL_DIR to set. The service itself never loads remote models.
 * HF_ENDPOINT points it at a mirror, as for the other Hugging Face tools.
 */

/** English CoNLL-2003 NER (PER, ORG, LOC, MISC), BERT-base, with ONNX weights in onnx/. */
export const DEFAULT_PULL_MODEL = 'Xenova/bert-base-NER';
const DEFAULT_ENDPOINT = 'https://huggingface.co';
/** A BERT-large fp32 export is about 1.3 GB; anything far larger is not a NER model. */
const MAX_FILE_BYTES = 2 * 1024 ** 3;
/** Per file, covering a slow line for the largest weights. */
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

const WEIGHTS_BY_DTYPE = { q8: 'onnx/model_quantized.onnx', fp32: 'onnx/model.onnx' } as const;
export type PullDtype = keyof typeof WEIGHTS_BY_DTYPE;

export interface PullOptions {
  model: string;
  dtype: PullDtype;
  revision: string;
  dataDir: string;
  endpoint: string;
}

export class PullError extends Error {
  override name = 'PullError';
}

const USAGE = `usage: npm run models:pull [-- --model <owner/name>] [--dtype q8|fp32] [--revision <rev>]
  --model     Hugging Face model id with ONNX weights (default ${DEFAULT_PULL_MODEL})
  --dtype     q8 (onnx/model_quantized.onnx, default) or fp32 (onnx/model.onnx)
  --revision  branch, tag or commit (default main)
Downloads into \${PARLEY_DATA_DIR:-./data}/models/<owner>/<name>.`;

const MODEL_ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;

export function parsePullArguments(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): PullOptions {
  const options: PullOptions = {
    model: DEFAULT_PULL_MODEL,
    dtype: 'q8',
    revision: 'main',
    dataDir: resolve(env.PARLEY_DATA_DIR ?? './data'),
    endpoint: (env.HF_ENDPOINT ?? DEFAULT_ENDPOINT).replace(/\/+$/, ''),
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const [name, inline] = flag.startsWith('--') && flag.includes('=') ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)] : [flag, undefined];
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new PullError(`${name} needs a value\n${USAGE}`);
    if (name === '--model') options.model = value;
    else if (name === '--revision') options.revision = value;
    else if (name === '--dtype') {
      if (value !== 'q8' && value !== 'fp32') throw new PullError(`--dtype must be q8 or fp32 (got '${value}')`);
      options.dtype = value;
    } else throw new PullError(`unknown argument '${flag}'\n${USAGE}`);
  }
  if (!MODEL_ID.test(options.model) || options.model.includes('..')) {
    throw new PullError(`--model must be a Hugging Face id like ${DEFAULT_PULL_MODEL} (got '${options.model}')`);
  }
  return options;
}

export function targetDirFor(options: Pick<PullOptions, 'dataDir' | 'model'>): string {
  const [owner, name] = options.model.split('/') as [string, string];
  return join(options.dataDir, 'models', owner, name);
}

function filesToPull(dtype: PullDtype): { path: string; required: boolean }[] {
  return [
    { path: 'config.json', required: true },
    { path: 'tokenizer.json', required: true },
    { path: 'tokenizer_config.json', required: false },
    { path: 'special_tokens_map.json', required: false },
    { path: WEIGHTS_BY_DTYPE[dtype], required: true },
  ];
}

function unreachable(endpoint: string, error: unknown): PullError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new PullError(
    `cannot reach ${endpoint} (${reason}). \`npm run models:pull\` needs internet access to the Hugging Face hub ` +
      `(or a mirror in HF_ENDPOINT). Without it, copy a model folder (config.json, tokenizer.json, onnx/model_quantized.onnx) ` +
      `from a machine that has access and set PARLEY_NER_MODEL_DIR to it; parley runs on its symbolic layer meanwhile.`,
  );
}

/** Downloads one file; false when an optional file does not exist on the hub. */
async function download(options: PullOptions, file: { path: string; required: boolean }, into: string, log: (line: string) => void): Promise<boolean> {
  const url = `${options.endpoint}/${options.model}/resolve/${encodeURIComponent(options.revision)}/${file.path}`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    throw unreachable(options.endpoint, error);
  }
  if (response.status === 404 && !file.required) return false;
  if (!response.ok || !response.body) {
    const hint = response.status === 404 ? `: the model has no ${file.path} (is it an ONNX export? try --dtype fp32)` : response.status === 401 ? ': the model is private or gated' : '';
    throw new PullError(`GET ${url} answered ${response.status}${hint}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_FILE_BYTES) throw new PullError(`${file.path} is ${declared} bytes, more than the ${MAX_FILE_BYTES}-byte limit`);
  const target = join(into, file.path);
  await mkdir(dirname(target), { recursive: true });
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > MAX_FILE_BYTES ? new PullError(`${file.path} exceeds the ${MAX_FILE_BYTES}-byte limit`) : null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), limit, createWriteStream(target));
  } catch (error) {
    if (error instanceof PullError) throw error;
    throw unreachable(options.endpoint, error);
  }
  log(`  ${file.path} (${(received / 1024 ** 2).toFixed(1)} MB)`);
  return true;
}

/** Downloads into a temporary sibling folder, checks it as the service would, then moves it into place. */
export async function pullModel(options: PullOptions, log: (line: string) => void = console.error): Promise<string> {
  const target = targetDirFor(options);
  const partial = `${target}.partial-${process.pid}`;
  log(`downloading ${options.model} (${options.dtype}) from ${options.endpoint} into ${target}`);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    for (const file of filesToPull(options.dtype)) await download(options, file, partial, log);
    const record: PullRecord = { model: options.model, revision: options.revision, dtype: options.dtype };
    await writeFile(join(partial, PULL_RECORD_FILE), JSON.stringify(record, null, 2));
    await inspectNerModelDir(partial);
    await rm(target, { recursive: true, force: true });
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
  return target;
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  try {
    const options = parsePullArguments(process.argv.slice(2));
    const dir = await pullModel(options);
    console.log(`\nModel ready. Start parley with:\n  PARLEY_NER_MODEL_DIR=${dir}`);
  } catch (error) {
    console.error(error instanceof PullError || (error as Error).name === 'NerModelUnavailableError' ? (error as Error).message : error);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
