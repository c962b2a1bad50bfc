import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAIM_TYPES } from '../../engine/ontology/index.ts';
import { parseGold } from '../../bench/eval/score.ts';

/** The development set itself: well formed, and as broad as its README says. */
const gold = parseGold(readFileSync(new URL('../../corpora/gold/dev.jsonl', import.meta.url), 'utf8'));

describe('corpora/gold/heldout.jsonl', () => {
  it('is well formed and shares no sentence with the development set', () => {
    const heldout = parseGold(readFileSync(new URL('../../corpora/gold/heldout.jsonl', import.meta.url), 'utf8'));
    expect(heldout.length).toBeGreaterThanOrEqual(20);
    const devTexts = new Set(gold.map((sentence) => sentence.text));
    const devIds = new Set(gold.map((sentence) => sentence.id));
    expect(heldout.filter((sentence) => devTexts.has(sentence.text) || devIds.has(sentence.id))).toEqual([]);
  });
});

describe('corpora/gold/heldout-official.jsonl', () => {
  it('holds at least 60 well-formed official-statement sentences, none shared with the other sets', () => {
    const official = parseGold(readFileSync(new URL('../../corpora/gold/heldout-official.jsonl', import.meta.url), 'utf8'));
    const heldout = parseGold(readFileSync(new URL('../../corpora/gold/heldout.jsonl', import.meta.url), 'utf8'));
    expect(official.length).toBeGreaterThanOrEqual(60);
    const others = [...gold, ...heldout];
    const texts = new Set(others.map((sentence) => sentence.text));
    const ids = new Set(others.map((sentence) => sentence.id));
    expect(official.filter((sentence) => texts.has(sentence.text) || ids.has(sentence.id))).toEqual([]);
  });
});

describe('corpora/gold/dev.jsonl', () => {
  it('has at least 100 sentences from at least 20 conflict settings', () => {
    expect(gold.length).toBeGreaterThanOrEqual(100);
    expect(new Set(gold.map((sentence) => sentence.conflict)).size).toBeGreaterThanOrEqual(20);
  });

  it('covers every claim type and includes sentences without claims or events', () => {
    const claimTypes = new Set(gold.flatMap((sentence) => sentence.claims.map((claim) => claim.type)));
    expect([...CLAIM_TYPES].filter((type) => !claimTypes.has(type))).toEqual([]);
    expect(gold.filter((sentence) => sentence.claims.length === 0).length).toBeGreaterThanOrEqual(20);
    expect(gold.filter((sentence) => sentence.events.length === 0).length).toBeGreaterThanOrEqual(20);
  });
});
