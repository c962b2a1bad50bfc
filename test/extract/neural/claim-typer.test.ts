import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimModelKind } from '../../../engine/extract/neural/claim-classifier.ts';
import { createClaimTyper, openClaimTyper, withClaimTyping, type PooledClaimTyper } from '../../../engine/extract/neural/claim-typer.ts';
import { NerModelUnavailableError } from '../../../engine/extract/neural/model-dir.ts';
import type { SymbolicLayer } from '../../../engine/extract/symbolic/layer.ts';
import type { ClaimMention, Findings } from '../../../engine/extract/types.ts';
import { CLAIM_TYPES } from '../../../engine/ontology/index.ts';
import { buildTinyNerModel, buildTinySequenceClassifier, type TinyNerModel } from '../../helpers/tiny-ner-model.ts';

describe('claimModelKind', () => {
  it('reads claim-type labels in any spelling, NLI labels, and refuses anything else', () => {
    expect(claimModelKind(['RED_LINE', 'demand', 'Other'])).toEqual({ kind: 'classifier', types: ['RedLine', 'Demand', null] });
    expect(claimModelKind(['CONTRADICTION', 'NEUTRAL', 'ENTAILMENT'])).toEqual({ kind: 'zero-shot', entailment: 2 });
    expect(claimModelKind(['O', 'B-PER', 'I-PER'])).toBeNull();
    expect(claimModelKind(['Threat', 'Other'])).toBeNull();
  });
});

describe('claim typing with a generated text classifier', () => {
  let model: TinyNerModel;
  let pooled: PooledClaimTyper;
  let inProcess: PooledClaimTyper;
  const clauses = ['We will never accept this', 'They demand a withdrawal', 'Talks resumed', 'The weather was fine'];

  beforeAll(async () => {
    model = await buildTinySequenceClassifier({
      labels: ['Position', 'RedLine', 'Demand', 'Threat', 'none'],
      taggedWords: { never: 'RedLine', demand: 'Demand', weather: 'none' },
    });
    [pooled, inProcess] = await Promise.all([createClaimTyper({ modelDir: model.dir, workers: 1 }), createClaimTyper({ modelDir: model.dir, workers: 0 })]);
  });
  afterAll(async () => {
    await Promise.all([pooled?.close(), inProcess?.close()]);
    await model?.remove();
  });

  it('gives each clause the label its words lead to, null for labels that are not claim types', async () => {
    expect(pooled.kind).toBe('classifier');
    const predictions = await pooled.typeClaims(clauses);
    expect(predictions.map((p) => p?.type ?? null)).toEqual(['RedLine', 'Demand', 'Position', null]);
    expect(predictions[0]!.score).toBeGreaterThan(0.8);
    expect(predictions[2]!.score).toBeLessThan(0.6);
    expect(await inProcess.typeClaims(clauses)).toEqual(predictions);
    expect(await pooled.typeClaims([])).toEqual([]);
  });

  it('re-types the symbolic layer claims the model is confident about', async () => {
    const claim = (text: string, start: number): ClaimMention => ({
      start, end: start + text.length, text, type: 'Position', cue: { start, end: start + 4 }, targets: [], confidence: 0.7,
    });
    const findings: Findings = {
      actors: [], locations: [], dates: [], events: [], relations: [],
      claims: [claim('We will never accept this', 0), claim('Talks resumed', 30)],
    };
    const rules: SymbolicLayer = { version: 'rules/1', find: () => findings };
    const layer = withClaimTyping(rules, pooled);
    const found = await layer.find({ text: 'irrelevant to the stand-in', source: 'test' });
    expect(found.claims.map((c) => [c.text, c.type, c.confidence])).toEqual([
      ['We will never accept this', 'RedLine', 0.7],
      ['Talks resumed', 'Position', 0.7],
    ]);
    expect(found.claims[0]!.cue).toEqual(findings.claims[0]!.cue);
    expect(layer.version).toBe(`rules/1+claims:${pooled.model}`);
  });

  it('refuses a folder whose labels are not claim types', async () => {
    const ner = await buildTinyNerModel();
    try {
      await expect(createClaimTyper({ modelDir: ner.dir, workers: 0 })).rejects.toMatchObject({ problem: 'invalid_config' });
      await expect(createClaimTyper({ modelDir: ner.dir + '-absent' })).rejects.toBeInstanceOf(NerModelUnavailableError);
      expect(await openClaimTyper({})).toEqual({ typer: null, status: 'no claim model configured: claims typed by the rules' });
      const opened = await openClaimTyper({ modelDir: ner.dir, workers: 0 });
      expect(opened.typer).toBeNull();
      expect(opened.status).toMatch(/neither claim types nor NLI labels.*claims typed by the rules$/);
    } finally {
      await ner.remove();
    }
  });
});

describe('zero-shot claim typing with a generated NLI model', () => {
  it('ranks the types by entailment of their hypotheses', async () => {
    // Only the RedLine hypothesis ("... non-negotiable.") contains the wired word, so it is entailed whatever the clause.
    const model = await buildTinySequenceClassifier({ labels: ['contradiction', 'neutral', 'entailment'], taggedWords: { negotiable: 'entailment' } });
    const typer = await createClaimTyper({ modelDir: model.dir, workers: 1 });
    try {
      expect(typer.kind).toBe('zero-shot');
      const clauses = Array.from({ length: 10 }, (_, i) => `Clause number ${i} about the talks`);
      const predictions = await typer.typeClaims(clauses);
      expect(predictions).toHaveLength(10);
      for (const prediction of predictions) {
        expect(prediction!.type).toBe('RedLine');
        // e^4 / (e^4 + the other types at e^0)
        expect(prediction!.score).toBeCloseTo(Math.exp(4) / (Math.exp(4) + CLAIM_TYPES.length - 1), 4);
      }
    } finally {
      await typer.close();
      await model.remove();
    }
  });
});
