import { describe, expect, it } from 'vitest';
import {
  aggregateDocuments,
  mapNodesToEntities,
  scoreDocument,
  scoreDocumentRelations,
  sentenceOfDocument,
  type DocumentPrediction,
} from '../../bench/eval/documents.ts';
import { summariseRelations } from '../../bench/eval/relations.ts';
import { namesMatch } from '../../bench/eval/score.ts';
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
  it('lists each entity once with its other forms as aliases, claims by speaker name, and no relations (scored by entity)', () => {
    const sentence = sentenceOfDocument(document);
    expect(sentence.actors).toEqual([
      { text: 'Alpha Front', type: 'armed_group', aliases: [] },
      { text: 'Mara Quell', type: 'individual', aliases: [] },
      { text: 'Kesh Guard', type: 'armed_group', aliases: [] },
    ]);
    expect(sentence.locations).toEqual([{ text: 'Bravo', type: 'city' }]);
    expect(sentence.claims.map((claim) => claim.speaker)).toEqual(['Mara Quell', 'Alpha Front']);
    expect(sentence.relations).toBeUndefined();
  });
});

describe('scoreDocumentRelations', () => {
  const [relations] = parseSource(`=== t-2
conflict: Test
genre: wire
date: 2024-01-02
entity idf ORG armed_forces Israeli troops
entity hez ORG armed_group Hezbollah
entity kh ORG armed_group Kata'ib Hezbollah
entity us ORG state United States
entity saree PER individual Yahya Saree
relation r1 OPPOSES hez idf
relation r2 OPPOSES us kh
relation r3 MEMBER_OF saree hez
---
[Israeli troops|idf] said they had been [fired on|r:r1] by [Hezbollah|hez] near the border. The [United States|us] [struck|r:r2] [Kata'ib Hezbollah|kh] in the east, and it said more strikes were possible.

[Yahya Saree|saree], a [spokesman|r:r3] of [Hezbollah|hez], said the group would respond.

${'Filler words follow here. '.repeat(30)}`);
  const mention = (id: string, index = 0) => {
    const { start, end } = relations.entities.find((entity) => entity.id === id)!.mentions[index];
    return { start, end };
  };
  const pronoun = relations.text.indexOf(' it ') + 1;
  const nodes: DocumentPrediction['nodes'] = [
    { id: 'idf', class: 'ORG', spans: [mention('idf')], label: 'Israeli troops' },
    { id: 'hez', class: 'ORG', spans: [mention('hez'), mention('hez', 1)], label: 'Hezbollah' },
    { id: 'hez-again', class: 'ORG', spans: [mention('hez', 1)], label: 'Hezbollah' },
    { id: 'us', class: 'ORG', spans: [mention('us')], label: 'United States' },
    { id: 'saree', class: 'PER', spans: [mention('saree')], label: 'Yahya Saree' },
    // A node read only from a pronoun: the old scorer matched it by its quote ("it" is the initials of "Israeli troops").
    { id: 'it', class: 'ORG', spans: [{ start: pronoun, end: pronoun + 2 }], label: 'it' },
  ];
  const score = (edges: NonNullable<DocumentPrediction['relations']>) => scoreDocumentRelations(relations, { nodes, claims: null, resolves: true, relations: edges });

  it('matches an end through the node mapped to its gold entity, never through a pronoun quote', () => {
    expect(namesMatch('it', 'Israeli troops')).toBe(true);
    const outcome = score([{ type: 'OPPOSES', from: 'hez', to: 'it' }]);
    expect(outcome.types.OPPOSES).toMatchObject({ tp: 0, fp: 1, fn: 2 });
    expect(outcome.types.OPPOSES.spurious).toEqual(['Hezbollah [→ hez] OPPOSES it [→ no gold entity]']);
    expect(score([{ type: 'OPPOSES', from: 'hez', to: 'idf' }]).types.OPPOSES).toMatchObject({ tp: 1, fp: 0, fn: 1 });
  });

  it('does not match a node mapped to another entity, however alike the names', () => {
    expect(namesMatch('Hezbollah', "Kata'ib Hezbollah")).toBe(true);
    const outcome = score([{ type: 'OPPOSES', from: 'us', to: 'hez' }, { type: 'OPPOSES', from: 'us', to: null }]);
    expect(outcome.types.OPPOSES).toMatchObject({ tp: 0, fp: 2, fn: 2 });
    expect(outcome.types.OPPOSES.spurious).toEqual([
      'United States [→ us] OPPOSES Hezbollah [→ hez]',
      'United States [→ us] OPPOSES (no node) [→ no gold entity]',
    ]);
    expect(outcome.types.OPPOSES.missed).toContain("United States [us] OPPOSES Kata'ib Hezbollah [kh]");
  });

  it('matches OPPOSES either way and MEMBER_OF from member to organisation only', () => {
    expect(score([{ type: 'OPPOSES', from: 'idf', to: 'hez' }]).types.OPPOSES.tp).toBe(1);
    const reversed = score([{ type: 'MEMBER_OF', from: 'hez', to: 'saree' }]).types.MEMBER_OF;
    expect(reversed).toMatchObject({ tp: 0, fp: 1, fn: 1 });
    expect(score([{ type: 'MEMBER_OF', from: 'saree', to: 'hez' }]).types.MEMBER_OF).toMatchObject({ tp: 1, fp: 0, fn: 0 });
  });

  it('lists exactly the errors it counts: a second edge of a found pair is in neither', () => {
    const outcome = score([
      { type: 'OPPOSES', from: 'hez', to: 'idf' },
      { type: 'OPPOSES', from: 'idf', to: 'hez' },
      { type: 'OPPOSES', from: 'hez-again', to: 'idf' },
      { type: 'OPPOSES', from: 'it', to: 'us' },
      { type: 'ALLIED_WITH', from: 'us', to: 'idf' },
    ]);
    expect(outcome.types.OPPOSES).toMatchObject({ tp: 1, fp: 1, fn: 1 });
    expect(outcome.types.OPPOSES.spurious).toEqual(['it [→ no gold entity] OPPOSES United States [→ us]']);
    for (const type of ['OPPOSES', 'ALLIED_WITH', 'MEMBER_OF'] as const) {
      expect(outcome.types[type].fp).toBe(outcome.types[type].spurious.length);
      expect(outcome.types[type].fn).toBe(outcome.types[type].missed.length);
    }
    const table = summariseRelations([{ not: [] }], [outcome]).types;
    expect(table.OPPOSES).toMatchObject({ tp: 1, fp: 1, fn: 1, precision: 0.5 });
    expect(table.ALLIED_WITH).toMatchObject({ tp: 0, fp: 1, fn: 0 });
  });

  it('is part of scoreDocument, with every gold relation missed by a layer that writes none', () => {
    const outcome = scoreDocument(relations, { nodes, claims: null, resolves: false });
    expect(outcome.relations.types.OPPOSES).toMatchObject({ tp: 0, fp: 0, fn: 2 });
    expect(outcome.relations.types.MEMBER_OF).toMatchObject({ tp: 0, fp: 0, fn: 1 });
  });
});
