import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNerBackend, type PooledNerBackend } from '../../../engine/extract/neural/backend.ts';
import { inspectNerModelDir, SHIPPED_NER_MODEL_DIR } from '../../../engine/extract/neural/model-dir.ts';
import { createExtractionPipeline } from '../../../engine/extract/pipeline.ts';
import { COMBINATION_POLICIES } from '../../../engine/extract/structure/combine.ts';
import type { NeuralEntity } from '../../../engine/extract/types.ts';
import { loadConfig } from '../../../server/config.ts';

/**
 * The recogniser shipped in engine/extract/neural/model/: it loads from the repository
 * alone (transformers.js never fetches remote models, see token-classifier.ts) and reads
 * plain names in plain sentences. The names are not in the symbolic layer's gazetteer, so what
 * is found here is the model's doing.
 */

const SENTENCES = {
  person: 'Foreign Minister Maria Lopez met her counterpart in Geneva.',
  command: 'General Mark Thompson, commander of the Joint Task Force, visited the front on Tuesday.',
  place: 'Fighting continued near the town of Kafr Nasih, residents said.',
};

const found = (entities: readonly NeuralEntity[], label: string) => entities.filter((e) => e.label === label).map((e) => e.text);

describe('the shipped entity recogniser', () => {
  let backend: PooledNerBackend;
  let entities: Record<keyof typeof SENTENCES, NeuralEntity[]>;

  beforeAll(async () => {
    backend = await createNerBackend({ modelDir: SHIPPED_NER_MODEL_DIR, workers: 1 });
    const keys = Object.keys(SENTENCES) as (keyof typeof SENTENCES)[];
    const results = await backend.recognise(keys.map((key) => SENTENCES[key]));
    entities = Object.fromEntries(keys.map((key, i) => [key, results[i]!])) as typeof entities;
  }, 120_000);

  afterAll(async () => {
    await backend?.close();
  });

  it('is a complete BERT-shaped folder with PER/ORG/LOC labels and quantised weights', async () => {
    const files = await inspectNerModelDir(SHIPPED_NER_MODEL_DIR);
    expect(files.dtype).toBe('q8');
    expect(files.labels).toEqual(['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC']);
    expect(backend.model).toMatch(/^parley-ner-small@sha256:[0-9a-f]{12}$/);
  });

  it('reads a titled name as a person, without the title', () => {
    expect(found(entities.person, 'PER')).toEqual(['Maria Lopez']);
  });

  it('tells a ranked person from the task force he commands', () => {
    expect(found(entities.command, 'PER')).toEqual(['Mark Thompson']);
    expect(found(entities.command, 'ORG')).toEqual(['Joint Task Force']);
  });

  it('reads a town the gazetteer does not know as a place', () => {
    expect(found(entities.place, 'LOC').some((text) => text.includes('Kafr Nasih'))).toBe(true);
  });

  it('feeds the pipeline: the model finds the person the rules miss', async () => {
    const document = { text: 'Haider al-Amiri said the talks would resume.', source: 'shipped-model-test' };
    const options = { tier: 'full' as const, ingestedAt: '2025-01-01T00:00:00Z' };
    const persons = (result: Awaited<ReturnType<ReturnType<typeof createExtractionPipeline>['extract']>>) =>
      result.graph.nodes.filter((node) => node.labels[0] === 'Actor' && node.properties.actor_type === 'individual').map((node) => node.properties.label);
    expect(persons(await createExtractionPipeline().extract(document, options))).toEqual([]);
    const ner = { model: backend.model, recognise: (texts: readonly string[]) => backend.recognise(texts), close: async () => undefined };
    // Below the default policy's 0.9 floor (the model gives this name about 0.87): a policy that admits it.
    const combination = COMBINATION_POLICIES.find((policy) => policy.name === 'fill gaps >= 0.8')!;
    const result = await createExtractionPipeline({ ner, combination }).extract(document, options);
    expect(result.extractor.model).toBe(backend.model);
    expect(persons(result)).toEqual(['Haider al-Amiri']);
  });
});

describe('the service configuration', () => {
  it('runs no model when PARLEY_NER_MODEL_DIR is unset or "none", the shipped one for "shipped", another folder when it names one', () => {
    expect(loadConfig({}).nerModelDir).toBeUndefined();
    expect(loadConfig({ PARLEY_NER_MODEL_DIR: 'shipped' }).nerModelDir).toBe(SHIPPED_NER_MODEL_DIR);
    expect(loadConfig({ PARLEY_NER_MODEL_DIR: 'models/other' }).nerModelDir).toBe(path.resolve('models/other'));
    expect(loadConfig({ PARLEY_NER_MODEL_DIR: 'none' }).nerModelDir).toBeUndefined();
  });
});
