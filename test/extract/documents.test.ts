import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { findConflictEntities } from '../../engine/extract/symbolic/index.ts';

/** Documents as users write them (issue 9): lists, datelines, labels, confidences. */

const extract = (text: string) => findConflictEntities({ text, source: 'test', document_date: '2025-02-02' });

describe('Markdown list items', () => {
  it('each bullet is its own claim, the line introducing them does not swallow them', () => {
    const text = 'The Valdoran Liberation Front set out its red lines:\n- The Korinthian army must withdraw from Kalo.\n- The Front would never disarm.\n1. Prisoners must be released.';
    const claims = extract(text).claims.map((claim) => [claim.type, claim.text]);
    expect(claims).toEqual([
      ['RedLine', expect.stringContaining('red lines')],
      ['Demand', 'The Korinthian army must withdraw from Kalo'],
      ['RedLine', 'The Front would never disarm'],
      ['Demand', 'Prisoners must be released'],
    ]);
    expect(claims.every(([, words]) => !String(words).includes('\n'))).toBe(true);
  });
});

describe('datelines and bylines', () => {
  it('the dateline stays out of the claim text', () => {
    const text = 'ADDIS ABABA, 2 February 2025 - The Tigray Interim Administration demanded that Eritrean troops withdraw.';
    const [claim] = extract(text).claims;
    expect(claim.type).toBe('Demand');
    expect(claim.text.startsWith('The Tigray Interim Administration')).toBe(true);
  });
});

describe('labels and confidences users read', () => {
  const pipeline = createExtractionPipeline();
  afterAll(() => pipeline.close());

  it('countries carry the labels users expect, confidences have two decimals', async () => {
    const result = await pipeline.extract(
      { text: 'America and Britain said the Kessari Front must disarm. Officials said it would be ready to talk.', source: 'labels.txt' },
      { tier: 'full', ingestedAt: '2025-02-02T00:00:00Z' },
    );
    const labels = result.graph.nodes.filter((node) => node.labels[0] === 'Actor').map((node) => node.properties.label);
    expect(labels).toEqual(expect.arrayContaining(['United States', 'United Kingdom']));
    expect(labels).not.toContain('America');
    const confidences = [...result.graph.nodes, ...result.graph.edges].map((item) => item.confidence);
    expect(confidences.length).toBeGreaterThan(3);
    for (const confidence of confidences) expect(Math.round(confidence * 100) / 100).toBe(confidence);
  });
});
