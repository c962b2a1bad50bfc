import { describe, expect, it } from 'vitest';
import { aggregateDocuments, mapNodesToEntities, relationRecordOfDocument, scoreDocument, sentenceOfDocument, type DocumentPrediction } from '../../bench/eval/documents.ts';
import { scoreRelationRecord } from '../../bench/eval/relations.ts';
import { parseSource } from '../../bench/eval/gold-source.ts';

const [document] = parseSource(`=== t-1
conflict: Test
genre: wire
date: 2024-01-02
entity alpha ORG armed_group Alpha Front
entity bravo LOC city Bravo
entity mara PER individual Mara Quell
entity kesh ORG armed_group Kesh Guard
claim c1 Threat mara
claim c2 Denial alpha
relation r1 OPPOSES alpha mara
relation r2 MEMBER_OF mara kesh
---
The [Alpha Front|alpha] took [Bravo|bravo] on Monday. Its commander [Mara Quell|mara] [of|r:r2] the [Kesh Guard|kesh] [attacked|r:r1] the town again.

[She|mara:pronoun] [vowed|c:c1] to hold [Bravo|bravo]. [The group|alpha:nominal] [denied|c:c2] looting, and [the commander|mara:office] left.

${'Filler words follow here. '.repeat(30)}`);

const at = (surface: string, occurrence = 1) => {
  let start = -1;
  for (let i = 0; i < occurrence; i++) start = document.text.indexOf(surface, start + 1);
  return { start, end: start + surface.length };
};

describe('mapNodesToEntities', () => {
  it('maps a node to the entity whose named mentions it overlaps most, and a node touching none to nothing', () => {
    const mapping = mapNodesToEntities(document, [
      { id: 'n1', class: 'LOC', spans: [at('Bravo'), at('Bravo', 2), at('Alpha Front')] },
      { id: 'n2', class: 'PER', spans: [at('She')] },
    ]);
    expect([...mapping]).toEqual([['n1', 'bravo']]);
  });
});

describe('scoreDocument', () => {
  const prediction: DocumentPrediction = {
    nodes: [
      { id: 'front', class: 'ORG', spans: [at('Alpha Front'), at('The group')] },
      { id: 'town', class: 'LOC', spans: [at('Bravo')] },
      { id: 'quell', class: 'PER', spans: [at('Mara Quell'), at('the commander')] },
      { id: 'wrong', class: 'PER', spans: [at('She')] },
    ],
    claims: [
      { type: 'Threat', span: { start: at('She').start, end: at('Bravo', 2).end }, speaker: 'wrong' },
      { type: 'Denial', span: at('denied'), speaker: 'front' },
      { type: 'Denial', span: at('denied'), speaker: 'front' },
    ],
    resolves: true,
  };

  it('finds a reference only through a node mapped to its entity', () => {
    const outcome = scoreDocument(document, prediction);
    expect(outcome.references).toEqual({ pronoun: { found: 0, total: 1 }, office: { found: 1, total: 1 }, nominal: { found: 1, total: 1 } });
    expect(outcome.missed).toContain(`pronoun "She" (${at('She').start}) → mara`);
  });

  it('matches claims by type at their cue, one to one, and checks the speaker node', () => {
    expect(scoreDocument(document, prediction).claims).toEqual({ gold: 2, matched: 2, withSpeaker: 2, speakerRight: 1 });
  });

  it('scores named spans, leaving the pronoun node out of precision', () => {
    const { spans } = scoreDocument(document, prediction);
    expect(spans.exact.LOC).toEqual({ tp: 1, fp: 0, fn: 1 });
    expect(spans.exact.PER).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('measures neither references nor claims for a layer that resolves nothing and finds no claims', () => {
    const outcome = scoreDocument(document, { nodes: [], claims: null, resolves: false });
    expect(outcome.references).toBeNull();
    expect(outcome.claims).toBeNull();
    const metrics = aggregateDocuments([outcome]);
    expect(metrics.references).toBeNull();
    expect(metrics.spans.overlap.ORG.recall).toBe(0);
  });

  it('aggregates recall and speaker accuracy over documents', () => {
    const metrics = aggregateDocuments([scoreDocument(document, prediction), scoreDocument(document, { ...prediction, nodes: [] })]);
    expect(metrics.references!.all).toEqual({ found: 2, total: 6, recall: 2 / 6 });
    expect(metrics.claims).toEqual({ gold: 4, matched: 4, recall: 1, with_speaker: 4, speaker_right: 1, speaker_accuracy: 0.25 });
    expect(metrics.spans.overlap.PER).toMatchObject({ tp: 1, fn: 1, fp: 0, recall: 0.5 });
  });
});

describe('sentenceOfDocument', () => {
  it('lists each entity once with its other forms as aliases, claims by speaker name, relations but MEMBER_OF', () => {
    const sentence = sentenceOfDocument(document);
    expect(sentence.actors).toEqual([
      { text: 'Alpha Front', type: 'armed_group', aliases: [] },
      { text: 'Mara Quell', type: 'individual', aliases: [] },
      { text: 'Kesh Guard', type: 'armed_group', aliases: [] },
    ]);
    expect(sentence.locations).toEqual([{ text: 'Bravo', type: 'city' }]);
    expect(sentence.claims.map((claim) => claim.speaker)).toEqual(['Mara Quell', 'Alpha Front']);
    expect(sentence.relations).toEqual([{ type: 'OPPOSES', from: 'Alpha Front', to: 'Mara Quell' }]);
  });
});

describe('relationRecordOfDocument', () => {
  it('keeps every relation type, MEMBER_OF included, each end with all its names, for per-type scoring', () => {
    const record = relationRecordOfDocument(document);
    expect(record.relations).toEqual([
      { type: 'OPPOSES', from: ['Alpha Front'], to: ['Mara Quell'] },
      { type: 'MEMBER_OF', from: ['Mara Quell'], to: ['Kesh Guard'] },
    ]);
    const outcome = scoreRelationRecord(record, [
      { type: 'MEMBER_OF', from: ['Quell'], to: ['Kesh Guard'] },
      { type: 'ALLIED_WITH', from: ['Alpha Front'], to: ['Mara Quell'] },
    ]);
    expect(outcome.types.MEMBER_OF).toMatchObject({ tp: 1, fp: 0, fn: 0 });
    expect(outcome.types.OPPOSES).toMatchObject({ tp: 0, fp: 0, fn: 1 });
    expect(outcome.types.ALLIED_WITH).toMatchObject({ tp: 0, fp: 1, fn: 0 });
  });
});
