import { describe, expect, it } from 'vitest';
import { writeAnalysis } from '../../engine/reason/analysis.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

describe('the written analysis', () => {
  it('says so when the question is understood but no loaded framework answers it, rather than blaming the graph', () => {
    const analysis = writeAnalysis('Who could spoil an agreement?', { kind: 'intents', intents: ['spoilers'] }, [], new GraphIndex());
    expect(analysis.answer).toBe('No loaded framework answers questions of this kind (spoilers); GET /v1/frameworks lists what is loaded and what was refused.');
    expect(analysis).toMatchObject({ intents: ['spoilers'], frameworks: [], citations: [] });
  });
});
