import { afterAll, describe, expect, it } from 'vitest';
import { normaliseForIdentity } from '../../../engine/store/ids.ts';
import { actors, coreferencePipeline } from './helpers.ts';

/**
 * Issue 25: organisation names are Unicode-normalised before matching and in identities:
 * curly and straight apostrophes, kinds of dash, invisible marks (U+200B, U+00AD, U+200E) and
 * composed or decomposed letters give one actor under one clean label.
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

const SPELLINGS = [
  "The Ngoro People's Liberation Front said it would never disarm.",
  'The Ngoro People\u2019s Liberation Front said it would never disarm.',
  "The Ngoro\u200b People's Libera\u00adtion Front said it would never disarm.",
  "The \u200eNgoro People's Liberation Front said it would never disarm.",
];

describe('organisation names', () => {
  it('are one node whatever quotes, invisible marks or Unicode form a document writes', async () => {
    const found = await Promise.all(SPELLINGS.map(async (text) => actors(await pipeline.graphOf(text))));
    for (const nodes of found) expect(nodes).toHaveLength(1);
    expect(new Set(found.map(([node]) => node.id)).size).toBe(1);
    // Labels carry no mark a reader cannot see.
    for (const [node] of found) expect(String(node.properties.label)).toMatch(/^Ngoro People['\u2019]s Liberation Front$/);
  });

  it('keep provenance quotes exact, marks included', async () => {
    const text = SPELLINGS[2];
    const [node] = actors(await pipeline.graphOf(text));
    const record = node.provenance.find((entry) => entry.span?.start === text.indexOf('Ngoro'))!;
    expect(record.quote).toBe(text.slice(record.span!.start, record.span!.end));
    expect(record.quote).toContain('\u200b');
  });

  it('compare equal in identity across dashes, marks and composition', () => {
    expect(normaliseForIdentity('Combined Joint Task Force \u2013 Operation Inherent Resolve')).toBe(normaliseForIdentity('Combined Joint Task Force - Operation Inherent Resolve'));
    expect(normaliseForIdentity('Al\u2011Nusra Front')).toBe(normaliseForIdentity('Al-Nusra Front'));
    expect(normaliseForIdentity('Kata\u200b\u2019ib')).toBe(normaliseForIdentity("Kata'ib"));
    expect(normaliseForIdentity('Goi\u0308ta')).toBe(normaliseForIdentity('Go\u00efta'));
    expect(normaliseForIdentity('Ngoro Front')).not.toBe(normaliseForIdentity('Ngoro-Front'));
  });
});
