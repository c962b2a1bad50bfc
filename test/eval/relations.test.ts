import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentPrediction } from '../../bench/eval/documents.ts';
import { occurrencesOf } from '../../bench/eval/gold-source.ts';
import {
  detokenise,
  entityRelationsOf,
  evaluateRelations,
  parseRelationSet,
  relationRecordsOf,
  relationTextProblems,
  resolveRecords,
  scoreRelationRecord,
  summariseRelations,
  type RelationRecord,
  type ResolvedRecord,
} from '../../bench/eval/relations.ts';
import { namesMatch, parseGold } from '../../bench/eval/score.ts';

const record = (overrides: Partial<ResolvedRecord> = {}): ResolvedRecord => ({
  id: 'r-1', conflict: 'Test', document_date: '2024-07-09',
  text: 'Rwandan troops fought alongside M23 rebels against the Congolese army near Sake, UN experts said.',
  relations: [
    { type: 'ALLIED_WITH', from: 'Rwandan troops', to: 'M23', reported_by: 'UN experts' },
    { type: 'OPPOSES', from: 'Rwandan troops', to: 'Congolese army', reported_by: 'UN experts' },
    { type: 'OPPOSES', from: 'M23', to: 'Congolese army', reported_by: 'UN experts' },
  ],
  not: [
    { type: 'OPPOSES', from: 'Rwandan troops', to: 'M23', why: 'allies' },
    { type: 'OPPOSES', from: 'UN experts', to: 'M23', why: 'reporter' },
  ],
  ...overrides,
});

/** The extractor's edges in `text`, each end a node read from the first word-bounded occurrence of its surface (a pronoun's node from the pronoun). */
const read = (text: string, ...edges: [type: string, from: string, to: string][]): DocumentPrediction => {
  const node = (surface: string) => {
    const [start] = occurrencesOf(text, surface);
    if (start === undefined) throw new Error(`"${surface}" is not in the text`);
    return { id: surface, class: 'ORG' as const, spans: [{ start, end: start + surface.length }], label: surface };
  };
  return {
    nodes: [...new Set(edges.flatMap(([, from, to]) => [from, to]))].map(node),
    claims: null,
    resolves: true,
    relations: edges.map(([type, from, to]) => ({ type, from, to })),
  };
};
const readIn = (item: ResolvedRecord, ...edges: [type: string, from: string, to: string][]) => read(item.text, ...edges);
const line = (value: object) => JSON.stringify(value);

describe('the relation set file', () => {
  it('rejects unknown types, unknown trap kinds, a trap that repeats a relation, records without text or source, and duplicate ids', () => {
    const { text, ...base } = record();
    const good = { ...base, text };
    expect(() => parseRelationSet(line({ ...good, relations: [{ type: 'SUPPORTS', from: 'M23', to: 'Congolese army' }] }))).toThrow(/relation type "SUPPORTS"/);
    expect(() => parseRelationSet(line({ ...good, not: [{ type: 'OPPOSES', from: 'M23', to: 'UN experts', why: 'rumour' }] }))).toThrow(/trap kind "rumour"/);
    // The same pair, either way round: an opposition has no direction when matched.
    expect(() => parseRelationSet(line({ ...good, not: [{ type: 'OPPOSES', from: 'Congolese army', to: 'M23', why: 'allies' }] }))).toThrow(/both a relation and a trap/);
    expect(() => parseRelationSet(line(base))).toThrow(/either a text or a redocred source/);
    expect(() => parseRelationSet(`${line(good)}\n${line(good)}`)).toThrow(/duplicate id r-1/);
    expect(parseRelationSet(`${line(good)}\n\n`)).toHaveLength(1);
  });

  it('finds ends and reporters that are not in the text', () => {
    expect(relationTextProblems(record())).toEqual([]);
    expect(relationTextProblems(record({ relations: [{ type: 'OPPOSES', from: 'M23', to: 'FARDC', reported_by: 'MONUSCO' }] })))
      .toEqual(['"FARDC" does not occur in the text', 'reporter "MONUSCO" does not occur in the text']);
  });
});

describe('Re-DocRED text', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('detokenises brackets, punctuation, hyphens and possessives', () => {
    expect(detokenise(['The', 'Ho', '-', 'Chunk', '(', 'or', 'Winnebago', ')', 'attacked', 'Aurangzeb', "'s", 'forces', ',', 'twice', '.']))
      .toBe("The Ho-Chunk (or Winnebago) attacked Aurangzeb's forces, twice.");
  });

  const open: RelationRecord = {
    id: 'ro-1', conflict: 'Test', document_date: '2020-01-01',
    source: { set: 'redocred', file: 'dev_revised.json', document: 1, title: 'Battle of Nowhere', sentences: [0, 1] },
    relations: [{ type: 'OPPOSES', from: 'Aurangzeb', to: 'Dara Shikoh' }],
    not: [],
  };
  const documents = [
    { title: 'Something else', sents: [['Nothing', '.']] },
    { title: 'Battle of Nowhere', sents: [['Aurangzeb', 'defeated', 'Dara', 'Shikoh', "'s", 'forces', '.'], ['It', 'rained', '.']] },
  ];

  it('reads an open record\'s sentences from the files and skips them when the files are absent', async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-relations-'));
    await writeFile(join(dir, 'dev_revised.json'), JSON.stringify(documents));
    const written = record();
    const { resolved, skipped } = await resolveRecords([written, open], dir);
    expect(skipped).toBe(0);
    expect(resolved.map((item) => item.text)).toEqual([written.text, "Aurangzeb defeated Dara Shikoh's forces. It rained."]);

    const absent = await resolveRecords([written, open], join(dir, 'missing'));
    expect(absent.skipped).toBe(1);
    expect(absent.resolved.map((item) => item.id)).toEqual(['r-1']);
  });

  it('fails when a document no longer has its title or an end is not in its text', async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-relations-'));
    await writeFile(join(dir, 'dev_revised.json'), JSON.stringify(documents));
    await expect(resolveRecords([{ ...open, source: { ...open.source!, document: 0 } }], dir)).rejects.toThrow(/not "Battle of Nowhere"/);
    await expect(resolveRecords([{ ...open, relations: [{ type: 'OPPOSES', from: 'Murad Baksh', to: 'Dara Shikoh' }] }], dir)).rejects.toThrow(/"Murad Baksh" does not occur/);
  });
});

describe('relation scoring', () => {
  it('matches oppositions and alliances either way round, memberships only from member to organisation', () => {
    const member = record({
      text: 'Mohamed Hamdan Dagalo, the RSF commander, said his forces had attacked the Sudanese Armed Forces.',
      relations: [{ type: 'MEMBER_OF', from: 'Mohamed Hamdan Dagalo', to: 'RSF' }, { type: 'OPPOSES', from: 'RSF', to: 'Sudanese Armed Forces' }],
      not: [],
    });
    const right = scoreRelationRecord(member, readIn(member, ['MEMBER_OF', 'Dagalo', 'RSF'], ['OPPOSES', 'Sudanese Armed Forces', 'RSF']));
    expect([right.types.MEMBER_OF.tp, right.types.OPPOSES.tp]).toEqual([1, 1]);
    const reversed = scoreRelationRecord(member, readIn(member, ['MEMBER_OF', 'RSF', 'Mohamed Hamdan Dagalo']));
    expect(reversed.types.MEMBER_OF).toMatchObject({ tp: 0, fp: 1, fn: 1 });
  });

  it('counts a second edge of a found relation neither way, and a wrong type as a miss and a false positive', () => {
    const outcome = scoreRelationRecord(record(), readIn(record(),
      ['ALLIED_WITH', 'Rwandan troops', 'M23'],
      ['ALLIED_WITH', 'M23', 'Rwandan troops'],
      ['ALLIED_WITH', 'M23', 'Congolese army'],
    ));
    expect(outcome.types.ALLIED_WITH).toMatchObject({ tp: 1, fp: 1, fn: 0 });
    expect(outcome.types.OPPOSES).toMatchObject({ tp: 0, fp: 0, fn: 2 });
  });

  it('counts predictions that fall into a trap by kind, and the reported relations found', () => {
    const outcome = scoreRelationRecord(record(), readIn(record(),
      ['OPPOSES', 'M23', 'Rwandan troops'],
      ['OPPOSES', 'UN', 'M23 rebels'],
      ['OPPOSES', 'Congolese army', 'M23'],
    ));
    expect(outcome.types.OPPOSES).toMatchObject({ tp: 1, fp: 2, fn: 1 });
    expect(outcome.trapViolations).toEqual(['allies', 'reporter']);
    expect(outcome.reported).toEqual({ gold: 3, found: 1 });
  });

  it('scores only the types asked for', () => {
    const outcome = scoreRelationRecord(record(), readIn(record(), ['MEMBER_OF', 'M23', 'Congolese army']), ['OPPOSES', 'ALLIED_WITH']);
    expect(outcome.types.MEMBER_OF).toMatchObject({ tp: 0, fp: 0, fn: 0 });
    expect(outcome.types.OPPOSES.fn).toBe(2);
  });

  it('sums records per type and over all types', () => {
    const records = [record(), record({ id: 'r-2' })];
    const outcomes = [
      scoreRelationRecord(records[0], readIn(records[0], ['ALLIED_WITH', 'Rwandan troops', 'M23'], ['OPPOSES', 'Rwandan troops', 'M23'])),
      scoreRelationRecord(records[1], readIn(records[1])),
    ];
    const summary = summariseRelations(records, outcomes);
    expect(summary.types.ALLIED_WITH).toMatchObject({ tp: 1, fp: 0, fn: 1, precision: 1, recall: 0.5 });
    expect(summary.types.OPPOSES).toMatchObject({ tp: 0, fp: 1, fn: 4, precision: 0, recall: 0 });
    expect(summary.types.MEMBER_OF).toMatchObject({ precision: null, recall: null });
    expect(summary.types.all).toMatchObject({ tp: 1, fp: 1, fn: 5 });
    expect(summary.traps).toEqual({ entries: 4, violations: 1, byKind: { allies: 1 } });
    expect(summary.reported).toEqual({ gold: 6, found: 1, recall: 1 / 6 });
  });

  it('runs an extractor over the records, scoring a failed extraction as empty', async () => {
    const extractor = {
      description: 'stub',
      predict: async (sentence: { id: string; text: string }) => {
        if (sentence.id === 'r-2') throw new Error('boom');
        return read(sentence.text, ['OPPOSES', 'M23', 'Congolese army']);
      },
      close: async () => undefined,
    };
    const openRecord = record({ id: 'r-3', source: { set: 'redocred', file: 'dev_revised.json', document: 0, title: 'T', sentences: [0] } });
    const summary = await evaluateRelations(extractor, [record(), record({ id: 'r-2' }), openRecord]);
    expect(summary.errors).toBe(1);
    expect(summary.types.OPPOSES).toMatchObject({ tp: 2, fp: 0, fn: 4 });
    // Written and open records apart, all types together.
    expect(summary.sources.written).toMatchObject({ tp: 1, fp: 0, fn: 5 });
    expect(summary.sources.open).toMatchObject({ tp: 1, fp: 0, fn: 2 });
  });

  it("takes an entity set's relations with each end's aliases", () => {
    const [sentence] = parseGold(line({
      id: 'of-1', conflict: 'Syria', document_date: '2024-01-16',
      text: 'U.S. Central Command (CENTCOM) forces struck Hurras al-Din.',
      actors: [{ text: 'U.S. Central Command', type: 'armed_forces', aliases: ['CENTCOM'] }, { text: 'Hurras al-Din', type: 'armed_group' }],
      claims: [], events: [], locations: [], dates: [],
      relations: [{ type: 'OPPOSES', from: 'U.S. Central Command', to: 'Hurras al-Din' }],
    }));
    const [converted] = relationRecordsOf([sentence, { ...sentence, id: 'of-2', relations: undefined }]);
    expect(converted.relations).toEqual([{ type: 'OPPOSES', from: ['U.S. Central Command', 'CENTCOM'], to: ['Hurras al-Din'] }]);
    expect(scoreRelationRecord(converted, readIn(converted, ['OPPOSES', 'CENTCOM', 'Hurras al-Din'])).types.OPPOSES.tp).toBe(1);
  });

  it('never matches an end through a node read only from a pronoun or a common noun (the old name matching did)', () => {
    const rockets = record({
      text: 'The Ortan Front shelled the Ibex Territorials near Vessa, and it said more would follow.',
      relations: [{ type: 'OPPOSES', from: 'Ortan Front', to: 'Ibex Territorials' }], not: [],
    });
    expect(namesMatch('it', 'Ibex Territorials')).toBe(true);
    const pronoun = scoreRelationRecord(rockets, readIn(rockets, ['OPPOSES', 'Ortan Front', 'it']));
    expect(pronoun.types.OPPOSES).toMatchObject({ tp: 0, fp: 1, fn: 1 });
    expect(pronoun.types.OPPOSES.spurious).toEqual(['Ortan Front [→ e0] OPPOSES it [→ no gold entity]']);

    const base = record({
      text: 'The army said the Ortan Front attacked the Vessan National Army base at Tarn.',
      relations: [{ type: 'OPPOSES', from: 'Ortan Front', to: 'Vessan National Army' }], not: [],
    });
    expect(namesMatch('The army', 'Vessan National Army')).toBe(true);
    expect(scoreRelationRecord(base, readIn(base, ['OPPOSES', 'Ortan Front', 'The army'])).types.OPPOSES).toMatchObject({ tp: 0, fp: 1, fn: 1 });
    expect(scoreRelationRecord(base, readIn(base, ['OPPOSES', 'Ortan Front', 'Vessan National Army'])).types.OPPOSES).toMatchObject({ tp: 1, fp: 0, fn: 0 });
  });

  it("does not match another actor's node however alike the names", () => {
    const talks = record({
      text: 'Abdel Fattah el-Sisi backed Abdel Fattah al-Burhan against the RSF.',
      relations: [{ type: 'ALLIED_WITH', from: 'Abdel Fattah el-Sisi', to: 'Abdel Fattah al-Burhan' }, { type: 'OPPOSES', from: 'Abdel Fattah al-Burhan', to: 'RSF' }],
      not: [{ type: 'OPPOSES', from: 'Abdel Fattah el-Sisi', to: 'RSF', why: 'other' }],
    });
    expect(namesMatch('Abdel Fattah el-Sisi', 'Abdel Fattah al-Burhan')).toBe(true);
    const outcome = scoreRelationRecord(talks, readIn(talks, ['OPPOSES', 'Abdel Fattah el-Sisi', 'RSF']));
    expect(outcome.types.OPPOSES).toMatchObject({ tp: 0, fp: 1, fn: 1 });
    expect(outcome.trapViolations).toEqual(['other']);
  });

  it('counts a span over two gold names for the one it covers more', () => {
    const shelling = record({
      text: 'Turkish-backed Syrian National Army factions shelled villages held by the SDF.',
      relations: [{ type: 'ALLIED_WITH', from: 'Turkish', to: 'Syrian National Army' }, { type: 'OPPOSES', from: 'Syrian National Army', to: 'SDF' }],
      not: [],
    });
    const outcome = scoreRelationRecord(shelling, readIn(shelling, ['OPPOSES', 'Turkish-backed Syrian National Army', 'SDF']));
    expect(outcome.types.OPPOSES).toMatchObject({ tp: 1, fp: 0, fn: 0 });
  });

  it("gives a record's ends their spans: every word-bounded occurrence of a form, ends sharing a form one entity, the longer of two overlapping", () => {
    const shelling = record({
      text: "Sudan's army said the RSF, or Rapid Support Forces, shelled Omdurman; the RSF denied it. Sudan protested.",
      relations: [{ type: 'OPPOSES', from: ['RSF', 'Rapid Support Forces'], to: "Sudan's army" }],
      not: [{ type: 'OPPOSES', from: 'RSF', to: 'Sudan', why: 'other' }],
    });
    const span = (start: number, length: number) => ({ start, end: start + length });
    const { entities, relations, not } = entityRelationsOf(shelling);
    expect(entities).toEqual([
      // Longest occurrences first, then by offset.
      { id: 'e0', name: 'RSF', mentions: [span(30, 20), span(22, 3), span(74, 3)] },
      { id: 'e1', name: "Sudan's army", mentions: [span(0, 12)] },
      { id: 'e2', name: 'Sudan', mentions: [span(89, 5)] },
    ]);
    expect(relations).toEqual([{ type: 'OPPOSES', from: 'e0', to: 'e1' }]);
    expect(not).toEqual([{ type: 'OPPOSES', from: 'e0', to: 'e2', why: 'other' }]);
  });
});

describe('corpora/gold/relations.jsonl', () => {
  const set = parseRelationSet(readFileSync(new URL('../../corpora/gold/relations.jsonl', import.meta.url), 'utf8'));
  const count = (type: string) => set.reduce((sum, item) => sum + item.relations.filter((relation) => relation.type === type).length, 0);

  it('holds at least 150 records, 60 of them written, with the counts its README promises', () => {
    expect(set.length).toBeGreaterThanOrEqual(150);
    expect(set.filter((item) => item.text !== undefined).length).toBeGreaterThanOrEqual(60);
    expect(count('OPPOSES')).toBeGreaterThanOrEqual(50);
    expect(count('ALLIED_WITH')).toBeGreaterThanOrEqual(40);
    expect(set.reduce((sum, item) => sum + item.not.length, 0)).toBeGreaterThanOrEqual(40);
  });

  it("names its written records' ends verbatim and shares no sentence with the entity sets", () => {
    const written = set.filter((item): item is ResolvedRecord => item.text !== undefined);
    expect(written.flatMap((item) => relationTextProblems(item).map((problem) => `${item.id}: ${problem}`))).toEqual([]);
    const others = ['dev.jsonl', 'heldout.jsonl', 'heldout-official.jsonl']
      .flatMap((file) => parseGold(readFileSync(new URL(`../../corpora/gold/${file}`, import.meta.url), 'utf8')));
    const texts = new Set(others.map((sentence) => sentence.text));
    expect(written.filter((item) => texts.has(item.text))).toEqual([]);
  });
});

describe('corpora/gold/relations-dev.jsonl', () => {
  const set = parseRelationSet(readFileSync(new URL('../../corpora/gold/relations-dev.jsonl', import.meta.url), 'utf8'));

  it('holds at least 120 written records with every relation type and the traps the rules are tuned against', () => {
    expect(set.length).toBeGreaterThanOrEqual(120);
    const types = new Set(set.flatMap((item) => item.relations.map((relation) => relation.type)));
    expect([...types].sort()).toEqual(['ALLIED_WITH', 'MEMBER_OF', 'OPPOSES']);
    const traps = new Set(set.flatMap((item) => item.not.map((trap) => trap.why)));
    for (const kind of ['negated', 'reporter', 'allies', 'mediator', 'ended', 'hypothetical', 'target_only', 'own_side']) expect(traps).toContain(kind);
  });

  it('names its ends verbatim and shares no sentence with the held-out sets or the entity sets', () => {
    const written = set.filter((item): item is ResolvedRecord => item.text !== undefined);
    expect(written).toHaveLength(set.length);
    expect(written.flatMap((item) => relationTextProblems(item).map((problem) => `${item.id}: ${problem}`))).toEqual([]);
    const heldOut = parseRelationSet(readFileSync(new URL('../../corpora/gold/relations.jsonl', import.meta.url), 'utf8'));
    const others = ['dev.jsonl', 'heldout.jsonl', 'heldout-official.jsonl']
      .flatMap((file) => parseGold(readFileSync(new URL(`../../corpora/gold/${file}`, import.meta.url), 'utf8')));
    const texts = new Set([...heldOut.map((item) => item.text), ...others.map((sentence) => sentence.text)]);
    expect(written.filter((item) => texts.has(item.text)).map((item) => item.id)).toEqual([]);
  });
});
