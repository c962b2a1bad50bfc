import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildGoldDocuments } from '../../bench/build-gold-documents.ts';
import { checkDocument, occurrencesOf, parseSource, sentenceAt, type GoldDocument } from '../../bench/eval/gold-source.ts';

const committed = readFileSync(new URL('../../corpora/gold/documents.jsonl', import.meta.url), 'utf8');
const documents: GoldDocument[] = committed.trim().split('\n').map((line) => JSON.parse(line));

describe('corpora/gold/documents.jsonl', () => {
  it('is what its sources give', async () => {
    expect(await buildGoldDocuments()).toBe(committed);
  });

  it('has at least 40 documents, each passing every check', () => {
    expect(documents.length).toBeGreaterThanOrEqual(40);
    for (const document of documents) expect(checkDocument(document), document.id).toEqual([]);
  });

  it('every span slices to its surface, every reference and claim points at an existing entity', () => {
    for (const document of documents) {
      const ids = new Set(document.entities.map((entity) => entity.id));
      const spans = [...document.entities.flatMap((entity) => entity.mentions), ...document.references, ...document.claims.map((claim) => claim.cue)];
      for (const span of spans) expect(document.text.slice(span.start, span.end), document.id).toBe(span.surface);
      for (const reference of document.references) expect(ids.has(reference.entity), `${document.id} ${reference.surface}`).toBe(true);
      for (const claim of document.claims) if (claim.speaker !== null) expect(ids.has(claim.speaker), `${document.id} ${claim.id}`).toBe(true);
    }
  });

  it('covers the kinds of reference the issue lists', () => {
    const kinds = new Set(documents.flatMap((document) => document.references.map((reference) => reference.kind)));
    expect([...kinds].sort()).toEqual(['nominal', 'office', 'pronoun']);
    expect(documents.filter((document) => document.conflict === 'Invented').length).toBeGreaterThanOrEqual(4);
  });
});

describe('the documents source format', () => {
  const source = `=== t-1
conflict: Test
genre: wire
date: 2024-01-02
entity a ORG armed_group Alpha Front
entity b LOC city Bravo
claim c1 Threat a
relation r1 MEMBER_OF a a
---
The [Alpha Front|a] took [Bravo|b]. [It|a:pronoun] [vowed|c:c1] to hold Bravo. Alpha Front [member|r:r1] units stayed in [Bravo|b].

${'Filler words follow here. '.repeat(30)}`;

  it('computes offsets and occurrences from the marks', () => {
    const [document] = parseSource(source);
    const bravo = document.entities.find((entity) => entity.id === 'b')!;
    expect(bravo.mentions.map((mention) => mention.occurrence)).toEqual([1, 3]);
    expect(document.text.slice(bravo.mentions[1].start, bravo.mentions[1].end)).toBe('Bravo');
    expect(document.references).toEqual([{ entity: 'a', kind: 'pronoun', surface: 'It', occurrence: 1, start: 28, end: 30 }]);
    expect(document.relations[0].sentence).toBe('Alpha Front member units stayed in Bravo.');
  });

  it('refuses a mark of an undeclared entity, a mark inside a word and a document too short', () => {
    expect(() => parseSource(source.replace('[Bravo|b].', '[Bravo|z].'))).toThrow(/unknown entity "z"/);
    expect(() => parseSource(source.replace('[It|a:pronoun]', 'B[ravo|b]'))).toThrow(/inside a longer word/);
    expect(() => parseSource(source.replace(/Filler[\s\S]*$/, 'Short.'))).toThrow(/words/);
  });

  it('reports a span whose offsets do not slice to its surface', () => {
    const [document] = parseSource(source);
    document.entities[0].mentions[0].start += 1;
    expect(checkDocument(document).join()).toMatch(/does not slice/);
  });

  it('counts occurrences at word boundaries and splits sentences past initials', () => {
    expect(occurrencesOf('Iran and Iranians, Iran', 'Iran')).toEqual([0, 19]);
    expect(sentenceAt('U.S. forces left. Gen. Smith stayed in Erbil. Then rain.', 30)).toBe('Gen. Smith stayed in Erbil.');
  });
});

describe('corpora/gold/documents-dev.jsonl', () => {
  const committedDev = readFileSync(new URL('../../corpora/gold/documents-dev.jsonl', import.meta.url), 'utf8');
  const developmentDocuments: GoldDocument[] = committedDev.trim().split('\n').map((line) => JSON.parse(line));

  it('is what its sources give, with at least 15 documents passing every check', async () => {
    expect(await buildGoldDocuments('documents-dev')).toBe(committedDev);
    expect(developmentDocuments.length).toBeGreaterThanOrEqual(15);
    for (const document of developmentDocuments) expect(checkDocument(document), document.id).toEqual([]);
  });

  it('shares no document id with the held-out documents', () => {
    const heldOut = new Set(documents.map((document) => document.id));
    expect(developmentDocuments.filter((document) => heldOut.has(document.id))).toEqual([]);
  });
});
