import { afterAll, beforeAll, expect, it } from 'vitest';
import { openExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { buildTinySequenceClassifier, type TinyNerModel } from '../helpers/tiny-ner-model.ts';

const SENTENCE = 'The Rapid Support Forces said they would never accept the plan.';
let model: TinyNerModel;
beforeAll(async () => {
  model = await buildTinySequenceClassifier({ labels: ['Position', 'RedLine', 'Demand', 'none'], taggedWords: { never: 'Demand' } });
});
afterAll(async () => model?.remove());

it('the server pipeline re-types claims with a configured claim model, and says so', async () => {
  const { pipeline, status } = await openExtractionPipeline({ claimModelDir: model.dir, workers: 1 });
  try {
    expect(status).toContain('claim model');
    expect(pipeline.extractor.rules).toMatch(/\+claims:/);
    const result = await pipeline.extract(
      { text: SENTENCE, source: 'test' },
      { tier: 'full' },
    );
    // the rules call this a RedLine (second test); the generated model, confident, says Demand
    expect(result.graph.nodes.filter((node) => node.labels[0] === 'Claim').map((claim) => claim.properties.type)).toEqual(['Demand']);
  } finally {
    await pipeline.close();
  }
});

it('without a claim model the rules type the claims, and the status says so', async () => {
  const { pipeline, status } = await openExtractionPipeline({});
  try {
    expect(status).toContain('claims typed by the rules');
    expect(pipeline.extractor.rules).not.toMatch(/\+claims:/);
    const result = await pipeline.extract({ text: SENTENCE, source: 'test' }, { tier: 'full' });
    expect(result.graph.nodes.filter((node) => node.labels[0] === 'Claim').map((claim) => claim.properties.type)).toEqual(['RedLine']);
  } finally {
    await pipeline.close();
  }
});
