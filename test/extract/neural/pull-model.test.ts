import { readFile, mkdtemp, rm, readdir, access } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNerBackend } from '../../../engine/extract/neural/backend.ts';
import {
  DEFAULT_PULL_MODEL,
  parsePullArguments,
  pullModel,
  PullError,
  targetDirFor,
  type PullOptions,
} from '../../../engine/extract/neural/pull-model.ts';
import { buildTinyNerModel, type TinyNerModel } from '../../helpers/tiny-ner-model.ts';

describe('models:pull arguments', () => {
  it('defaults to a public English NER model in the data dir', () => {
    const options = parsePullArguments([], { PARLEY_DATA_DIR: '/srv/parley' });
    expect(options).toEqual({
      model: DEFAULT_PULL_MODEL,
      dtype: 'q8',
      revision: 'main',
      dataDir: '/srv/parley',
      endpoint: 'https://huggingface.co',
    });
    expect(targetDirFor(options)).toBe('/srv/parley/models/Xenova/bert-base-NER');
    expect(parsePullArguments([], {}).dataDir).toBe(resolve('./data'));
  });

  it('reads --model, --dtype, --revision (also with =) and HF_ENDPOINT', () => {
    const options = parsePullArguments(['--model', 'Xenova/distilbert-base-cased-NER', '--dtype=fp32', '--revision', 'v1.0'], {
      HF_ENDPOINT: 'https://mirror.example/',
    });
    expect(options).toMatchObject({ model: 'Xenova/distilbert-base-cased-NER', dtype: 'fp32', revision: 'v1.0', endpoint: 'https://mirror.example' });
  });

  it('refuses unknown flags, missing values, bad dtypes and ids that could escape the models folder', () => {
    expect(() => parsePullArguments(['--force'])).toThrow(PullError);
    expect(() => parsePullArguments(['--model'])).toThrow(/needs a value/);
    expect(() => parsePullArguments(['--dtype', 'fp16'])).toThrow(/q8 or fp32/);
    for (const bad of ['bert', '../../etc', 'a/../b', '/abs/path', 'a/b/c']) {
      expect(() => parsePullArguments(['--model', bad]), bad).toThrow(/Hugging Face id/);
    }
  });
});

describe('models:pull download', () => {
  let source: TinyNerModel;
  let server: Server;
  let endpoint: string;
  let dataDir: string;
  const requested: string[] = [];

  beforeAll(async () => {
    source = await buildTinyNerModel({ taggedWords: { Khartoum: 'B-LOC' }, noise: 0 });
    dataDir = await mkdtemp(join(tmpdir(), 'parley-pull-'));
    // A stand-in for the hub on the loopback interface: /<owner>/<name>/resolve/<revision>/<file>.
    server = createServer(async (request, response) => {
      requested.push(request.url!);
      const match = /^\/acme\/tiny-ner\/resolve\/main\/(.+)$/.exec(request.url!);
      try {
        if (!match) throw new Error('unknown model');
        response.end(await readFile(join(source.dir, match[1]!)));
      } catch {
        response.statusCode = 404;
        response.end('not found');
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((done) => server?.close(done));
    await Promise.all([source?.remove(), rm(dataDir, { recursive: true, force: true })]);
  });

  const options = (overrides: Partial<PullOptions> = {}): PullOptions => ({
    model: 'acme/tiny-ner',
    dtype: 'q8',
    revision: 'main',
    dataDir,
    endpoint,
    ...overrides,
  });

  it('downloads the files into the target folder, skipping optional files the model lacks, and the result loads', async () => {
    const log: string[] = [];
    const dir = await pullModel(options(), (line) => log.push(line));
    expect(dir).toBe(join(dataDir, 'models', 'acme', 'tiny-ner'));
    expect((await readdir(dir)).sort()).toEqual(['config.json', 'onnx', 'parley-model.json', 'tokenizer.json', 'tokenizer_config.json']);
    expect(requested).toContain('/acme/tiny-ner/resolve/main/special_tokens_map.json');
    expect(log.some((l) => l.includes('onnx/model_quantized.onnx'))).toBe(true);
    const backend = await createNerBackend({ modelDir: dir, workers: 0 });
    try {
      // Named after the hub id it was pulled from, versioned by its weights.
      expect(backend.model).toMatch(/^acme\/tiny-ner@sha256:[0-9a-f]{12}$/);
      expect((await backend.recognise(['Shelling in Khartoum.']))[0]!.map((e) => e.text)).toEqual(['Khartoum']);
    } finally {
      await backend.close();
    }
  });

  it('says which file is missing and leaves no partial folder behind', async () => {
    await expect(pullModel(options({ dtype: 'fp32' }), () => undefined)).rejects.toThrow(/answered 404: the model has no onnx\/model\.onnx/);
    await expect(pullModel(options({ model: 'acme/absent' }), () => undefined)).rejects.toThrow(/config\.json answered 404/);
    expect(await readdir(join(dataDir, 'models', 'acme'))).toEqual(['tiny-ner']);
  });

  it('fails with a clear message when the hub cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const error = await pullModel(options({ endpoint: `http://127.0.0.1:${port}`, model: 'acme/other' }), () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PullError);
    expect((error as Error).message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\).*needs internet access.*PARLEY_NER_MODEL_DIR/s);
    await expect(access(join(dataDir, 'models', 'acme', 'other'))).rejects.toThrow();
  });
});
