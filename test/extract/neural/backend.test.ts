import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LimitError, OverloadedError, TooLargeError } from '../../../engine/errors.ts';
import { createNerBackend, openNerBackend, type PooledNerBackend } from '../../../engine/extract/neural/backend.ts';
import { inspectNerModelDir, NerModelUnavailableError } from '../../../engine/extract/neural/model-dir.ts';
import { splitSentences } from '../../../engine/extract/neural/sentences.ts';
import type { NeuralEntity } from '../../../engine/extract/types.ts';
import { buildTinyNerModel, TINY_NER_LABELS, type TinyNerModel } from '../../helpers/tiny-ner-model.ts';

const TAGGED = {
  Hemedti: 'B-PER',
  Dagalo: 'I-PER',
  Rapid: 'B-ORG',
  Support: 'I-ORG',
  Forces: 'I-ORG',
  Khartoum: 'B-LOC',
  Darfur: 'B-LOC',
} as const;

const DOCUMENT =
  'Gen. Hemedti Dagalo, head of the Rapid Support Forces, said: "Khartoum is ours." ' +
  "Khartoum fell; Darfur (Darfur!) too. Café Hemedti's men — not Hemedtis or xHemedti — held 東京 and 👍🏽 Darfur…";

const ENTITY_TYPES = new Set(TINY_NER_LABELS.filter((l) => l !== 'O').map((l) => l.slice(2)));

/** Structural guarantees that hold for any model, random weights included. */
function expectWellFormed(text: string, entities: NeuralEntity[]): void {
  const sentences = splitSentences(text);
  let previousEnd = 0;
  for (const entity of entities) {
    expect(ENTITY_TYPES.has(entity.label)).toBe(true);
    expect(text.slice(entity.start, entity.end)).toBe(entity.text);
    expect(entity.text).toBe(entity.text.trim());
    expect(entity.start).toBeGreaterThanOrEqual(previousEnd);
    expect(entity.score).toBeGreaterThan(0);
    expect(entity.score).toBeLessThanOrEqual(1);
    expect(sentences.some((s) => s.start <= entity.start && entity.end <= s.end)).toBe(true);
    previousEnd = entity.end;
  }
}

const summary = (entities: NeuralEntity[]) => entities.map((e) => `${e.label}:${e.text}@${e.start}`);

describe('neural backend with a generated model in a pool of 2 workers', () => {
  let model: TinyNerModel;
  let randomModel: TinyNerModel;
  let pool: PooledNerBackend;
  let randomPool: PooledNerBackend;

  beforeAll(async () => {
    model = await buildTinyNerModel({ taggedWords: TAGGED, noise: 0 });
    randomModel = await buildTinyNerModel({ seed: 7, noise: 3 });
    [pool, randomPool] = await Promise.all([
      createNerBackend({ modelDir: model.dir, workers: 2 }),
      createNerBackend({ modelDir: randomModel.dir, workers: 2 }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([pool?.close(), randomPool?.close()]);
    await Promise.all([model?.remove(), randomModel?.remove()]);
  });

  it('finds the wired words with labels from id2label, BIO grouping and offsets that index the text', async () => {
    const [entities] = await pool.recognise([DOCUMENT]);
    expect(summary(entities!)).toEqual([
      `PER:Hemedti Dagalo@${DOCUMENT.indexOf('Hemedti')}`,
      `ORG:Rapid Support Forces@${DOCUMENT.indexOf('Rapid')}`,
      `LOC:Khartoum@${DOCUMENT.indexOf('Khartoum')}`,
      `LOC:Khartoum@${DOCUMENT.indexOf('Khartoum fell')}`,
      `LOC:Darfur@${DOCUMENT.indexOf('Darfur')}`,
      `LOC:Darfur@${DOCUMENT.indexOf('Darfur!')}`,
      // "Café" is [UNK], labelled O. "Hemedti's" is three words. "Hemedtis" is Hemedti + ##s: the first sub-word
      // labels the word; "xHemedti" starts with the untagged sub-word "x".
      `PER:Hemedti@${DOCUMENT.indexOf("Hemedti's")}`,
      `PER:Hemedtis@${DOCUMENT.indexOf('Hemedtis')}`,
      `LOC:Darfur@${DOCUMENT.lastIndexOf('Darfur')}`,
    ]);
    expectWellFormed(DOCUMENT, entities!);
    for (const entity of entities!) expect(entity.score).toBeGreaterThan(0.5);
  });

  it('keeps each document separate and returns one list per text, empty texts included', async () => {
    const texts = ['', 'Nothing to see.', 'Darfur', ' \n\n Khartoum and Darfur. '];
    const result = await pool.recognise(texts);
    expect(result.map(summary)).toEqual([[], [], ['LOC:Darfur@0'], ['LOC:Khartoum@4', 'LOC:Darfur@17']]);
  });

  it('serves concurrent calls spread over both workers with the same answers as one call', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `Report ${i}: Hemedti Dagalo entered Khartoum. ${'The army said so. '.repeat(i % 5)}`);
    const oneCall = await pool.recognise(texts);
    const concurrent = await Promise.all(texts.map((t) => pool.recognise([t])));
    expect(concurrent.map((r) => r[0])).toEqual(oneCall);
    expect(oneCall.every((entities) => entities.length === 2)).toBe(true);
  });

  it('spreads a lone document over the idle workers, one batch each', async () => {
    const before = { ...pool.sent };
    const text = Array.from({ length: 10 }, (_, i) => `Khartoum fell ${i}.`).join(' ');
    const [entities] = await pool.recognise([text]);
    expect(entities).toHaveLength(10);
    expect({ batches: pool.sent.batches - before.batches, sentences: pool.sent.sentences - before.sentences }).toEqual({ batches: 2, sentences: 10 });
  });

  it('returns well-formed entities from a random model over every label', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence ${i} of the report, with Khartoum and x${i}y and ${'é'.repeat(i % 3)}.`).join(' ');
    const [entities] = await randomPool.recognise([text]);
    expect(entities!.length).toBeGreaterThan(10);
    expectWellFormed(text, entities!);
    expect(new Set(entities!.map((e) => e.label)).size).toBeGreaterThan(1);
  });

  it('reports the model name with a digest of its weights', () => {
    expect(pool.model).toMatch(/^parley-tiny-ner@sha256:[0-9a-f]{12}$/);
    expect(pool.workers).toBe(2);
  });
});

describe('neural backend on arbitrary text', () => {
  it('returns entities whose offsets index the text, whatever the characters', async () => {
    const model = await buildTinyNerModel({ seed: 3, noise: 3, words: ['Khartoum'] });
    const backend = await createNerBackend({ modelDir: model.dir, workers: 0 });
    try {
      const piece = fc.oneof(
        fc.constantFrom('Khartoum', 'the', 'Gen.', 'U.N.', '.', '!', ',', '\n\n', ' ', '  ', 'é', '東京', '👍🏽', '\u200b', "'s", '—'),
        fc.string({ unit: 'grapheme', maxLength: 8 }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(piece, { maxLength: 30 }).map((p) => p.join(' ')), { maxLength: 4 }), async (texts) => {
          const result = await backend.recognise(texts);
          expect(result).toHaveLength(texts.length);
          result.forEach((entities, i) => expectWellFormed(texts[i]!, entities));
        }),
        { numRuns: 60 },
      );
    } finally {
      await backend.close();
      await model.remove();
    }
  });
});

describe('neural backend limits and lifecycle', () => {
  let model: TinyNerModel;

  beforeAll(async () => {
    model = await buildTinyNerModel({ taggedWords: TAGGED, noise: 0, maxPositionEmbeddings: 8 });
  });
  afterAll(() => model?.remove());

  it('windows sentences longer than the model input and still maps every word back', async () => {
    const backend = await createNerBackend({ modelDir: model.dir, workers: 0 });
    try {
      const text = 'the the the the the Hemedti Dagalo the Abcdefghijklmnop the Khartoum the the the the Rapid Support Forces.';
      const [entities] = await backend.recognise([text]);
      expect(summary(entities!)).toEqual([
        `PER:Hemedti Dagalo@${text.indexOf('Hemedti')}`,
        `LOC:Khartoum@${text.indexOf('Khartoum')}`,
        `ORG:Rapid Support Forces@${text.indexOf('Rapid')}`,
      ]);
    } finally {
      await backend.close();
    }
  });

  it('batches the sentences of concurrent calls together, at most batchSentences per task, with the answers of calls alone', async () => {
    const texts = Array.from({ length: 12 }, (_, i) => `Hemedti Dagalo entered Khartoum on day ${i}. Darfur (${i}) held.`);
    const alone = await createNerBackend({ modelDir: model.dir, workers: 1, batchSentences: 1 });
    const batched = await createNerBackend({ modelDir: model.dir, workers: 1, batchSentences: 8 });
    try {
      const expected: NeuralEntity[][] = [];
      for (const text of texts) expected.push((await alone.recognise([text]))[0]!);
      expect(alone.sent).toEqual({ batches: 24, sentences: 24 });
      const concurrent = await Promise.all(texts.map((text) => batched.recognise([text])));
      expect(concurrent.map((r) => r[0])).toEqual(expected);
      expect(expected.every((entities) => entities.length === 3)).toBe(true);
      // The first call goes out at once (2 sentences); the 22 queued behind it go out 8 at a time.
      expect(batched.sent).toEqual({ batches: 4, sentences: 24 });
    } finally {
      await Promise.all([alone.close(), batched.close()]);
    }
  });

  it('refuses calls beyond the queue bound with OverloadedError and admits them again once drained', async () => {
    const backend = await createNerBackend({ modelDir: model.dir, workers: 1, maxQueue: 2 });
    try {
      const long = 'Khartoum fell. '.repeat(400);
      const first = backend.recognise([long]);
      const second = backend.recognise([long]);
      expect(backend.pending).toBe(2);
      await expect(backend.recognise(['Darfur'])).rejects.toBeInstanceOf(OverloadedError);
      await expect(backend.recognise(['Darfur'])).rejects.toMatchObject({ kind: 'overloaded', code: 'ner_queue_full' });
      const [a, b] = await Promise.all([first, second]);
      expect(a![0]!.length).toBe(400);
      expect(b).toEqual(a);
      expect(backend.pending).toBe(0);
      expect(summary((await backend.recognise(['Darfur']))[0]!)).toEqual(['LOC:Darfur@0']);

      const tooMany = await createNerBackend({ modelDir: model.dir, workers: 0, maxSentencesPerCall: 3 });
      await expect(tooMany.recognise(['One. Two. Three. Four.'])).rejects.toBeInstanceOf(TooLargeError);
      expect((await tooMany.recognise(['One. Two. Darfur.']))[0]!.length).toBe(1);
      await tooMany.close();
    } finally {
      await backend.close();
    }
  });

  it('gives up on a call past its time limit with LimitError and stops sending its tasks', async () => {
    // About 20 ms per sentence: the call below is tens of seconds of work.
    const slowModel = await buildTinyNerModel({ hiddenSize: 256, feedForward: { blocks: 4, innerSize: 1024 }, taggedWords: { Khartoum: 'B-LOC' }, noise: 0 });
    const backend = await createNerBackend({ modelDir: slowModel.dir, workers: 1, timeoutMs: 150 });
    try {
      // The worker starts and loads the model on its first task (past the limit on a busy machine): that is paid here, so the task in flight at the limit below is only sentences.
      const first = await backend.recognise(['Khartoum']).catch((e: unknown) => e);
      if (!Array.isArray(first)) expect(first).toBeInstanceOf(LimitError);
      await vi.waitFor(() => expect(backend.pending).toBe(0), { timeout: 60_000 });
      const started = performance.now();
      const error = await backend.recognise(['Khartoum fell to the army and the rebels near the city. '.repeat(2000)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LimitError);
      expect(error).toMatchObject({ code: 'ner_timeout', details: { limit_ms: 150 } });
      expect(performance.now() - started).toBeLessThan(5000);
      // The task on the worker finishes (terminating a thread inside onnxruntime aborts the process); no further task is sent.
      await vi.waitFor(() => expect(backend.pending).toBe(0), { timeout: 5000 });
      expect(performance.now() - started).toBeLessThan(5000);
      expect((await backend.recognise(['Khartoum']))[0]).toHaveLength(1);
    } finally {
      await backend.close();
      await slowModel.remove();
    }
  });

  it('finishes admitted calls on close, then refuses new ones', async () => {
    const backend = await createNerBackend({ modelDir: model.dir, workers: 1 });
    const running = backend.recognise(['Darfur. '.repeat(50)]);
    const closing = backend.close();
    expect((await running)[0]!.length).toBe(50);
    await closing;
    await expect(backend.recognise(['Darfur'])).rejects.toThrow(/closed/);
    await backend.close();
  });
});

describe('model folder checks', () => {
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(join(tmpdir(), 'parley-ner-empty-'));
  });
  afterAll(() => rm(empty, { recursive: true, force: true }));

  it('names the missing files and lets the pipeline fall back to the symbolic layer', async () => {
    const error = await createNerBackend({ modelDir: empty, workers: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NerModelUnavailableError);
    expect((error as NerModelUnavailableError).problem).toBe('missing_files');
    expect((error as NerModelUnavailableError).missing).toEqual([
      'config.json',
      'tokenizer.json',
      'onnx/model_quantized.onnx or onnx/model.onnx or onnx/model_int8.onnx or onnx/model_uint8.onnx',
    ]);
    const opened = await openNerBackend({ modelDir: empty });
    expect(opened.backend).toBeNull();
    expect(opened.status).toMatch(/lacks config\.json.*symbolic layer only/);
    expect(await openNerBackend({})).toMatchObject({ backend: null, status: expect.stringMatching(/no NER model configured/) });
  });

  it('rejects a config without id2label and weights that do not load', async () => {
    const model = await buildTinyNerModel({ fileName: 'model.onnx' });
    try {
      expect((await inspectNerModelDir(model.dir)).dtype).toBe('fp32');
      await writeFile(join(model.dir, 'onnx', 'model.onnx'), 'not an onnx graph');
      await expect(createNerBackend({ modelDir: model.dir, workers: 1 })).rejects.toMatchObject({
        name: 'NerModelUnavailableError',
        problem: 'load_failed',
      });
      await copyFile(join(model.dir, 'tokenizer.json'), join(model.dir, 'config.json'));
      await expect(inspectNerModelDir(model.dir)).rejects.toMatchObject({ problem: 'invalid_config' });
    } finally {
      await model.remove();
    }
  });
});
