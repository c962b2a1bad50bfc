import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../../engine/errors.ts';
import { MAX_DOCUMENT_CHARS, NO_MODEL_NOTE, SYMBOLIC_CHUNK_CHARS, chunkBounds, createExtractionPipeline, type ExtractionResult } from '../../engine/extract/pipeline.ts';
import type { StructuredNode } from '../../engine/extract/structure/index.ts';
import { createNerBackend } from '../../engine/extract/neural/backend.ts';
import { SYMBOLIC_EXTRACTOR_VERSION } from '../../engine/extract/symbolic/index.ts';
import { buildTinyNerModel, type TinyNerModel } from '../helpers/tiny-ner-model.ts';
import { SUDAN_SENTENCE } from './structure/fixtures.ts';

const INGESTED_AT = '2026-01-01T00:00:00.000Z';

function nodesOf(result: ExtractionResult, kind: string): StructuredNode[] {
  return result.graph.nodes.filter((node) => node.labels[0] === kind);
}

function byLabel(nodes: StructuredNode[], label: string | RegExp): StructuredNode {
  const found = nodes.filter((node) => (typeof label === 'string' ? node.properties.label === label : label.test(String(node.properties.label))));
  expect(found, `one node labelled ${label}`).toHaveLength(1);
  return found[0];
}

function expectSpansIndexText(result: ExtractionResult, text: string): void {
  const items = [...result.graph.nodes, ...result.graph.edges];
  expect(items.length).toBeGreaterThan(0);
  for (const item of items) {
    expect(item.provenance.length, `provenance on ${item.id}`).toBeGreaterThan(0);
    for (const record of item.provenance) {
      expect(record.span, `span on ${item.id}`).toBeDefined();
      expect(text.slice(record.span!.start, record.span!.end)).toBe(record.quote);
      expect(record.document_id).toBe(result.document.id);
      expect(record.extractor).toContain(SYMBOLIC_EXTRACTOR_VERSION);
    }
  }
}

describe('extraction pipeline, symbolic layer only', () => {
  const pipeline = createExtractionPipeline();

  it('extracts the Sudan sentence: actors, membership, the assault, and the red line', async () => {
    const result = await pipeline.extract({ text: SUDAN_SENTENCE, source: 'sudan.txt' }, { tier: 'full', ingestedAt: INGESTED_AT });
    const actors = nodesOf(result, 'Actor');
    const rsf = byLabel(actors, 'Rapid Support Forces');
    const saf = byLabel(actors, 'Sudanese Armed Forces');
    const burhan = byLabel(actors, /al-Burhan$/);
    expect(rsf.properties.actor_type).toBe('armed_group');
    expect(saf.properties.actor_type).toBe('armed_forces');
    expect(burhan.properties.actor_type).toBe('individual');
    expect(rsf.properties.aliases).toContain('RSF');
    expect(actors.filter((a) => a.properties.actor_type === 'armed_group' || a.properties.actor_type === 'armed_forces')).toHaveLength(2);

    const edge = (type: string, from: string, to: string) => result.graph.edges.filter((e) => e.type === type && e.from === from && e.to === to);
    expect(edge('MEMBER_OF', burhan.id, saf.id)).toHaveLength(1);

    const assaults = nodesOf(result, 'Event').filter((e) => e.properties.event_type === 'ASSAULT');
    expect(assaults).toHaveLength(1);
    const [assault] = assaults;
    expect(assault.properties.date).toBe('2024-03-03');
    const fasher = byLabel(nodesOf(result, 'Location'), 'El Fasher');
    expect(edge('OCCURRED_AT', assault.id, fasher.id)).toHaveLength(1);
    const perpetrators = result.graph.edges.filter((e) => e.type === 'PARTICIPATES_IN' && e.to === assault.id && e.properties.role === 'perpetrator');
    expect(perpetrators.map((e) => e.from)).toEqual([rsf.id]);

    const redLines = nodesOf(result, 'Claim').filter((c) => c.properties.type === 'RedLine');
    expect(redLines).toHaveLength(1);
    const [redLine] = redLines;
    expect(redLine.properties.speaker).toBe(burhan.id);
    expect(SUDAN_SENTENCE).toContain(String(redLine.properties.text));
    expect(edge('ASSERTS', burhan.id, redLine.id)).toHaveLength(1);
    expect(edge('TARGETS', redLine.id, rsf.id)).toHaveLength(1);

    expectSpansIndexText(result, SUDAN_SENTENCE);
    expect(result.document).toMatchObject({ source: 'sudan.txt', length: SUDAN_SENTENCE.length });
    expect(result.stats).toMatchObject({ characters: SUDAN_SENTENCE.length, sentences: 1, neural_entities: null });
  });

  it('says in every result that no transformer ran', async () => {
    const result = await pipeline.extract({ text: SUDAN_SENTENCE, source: 's' }, { tier: 'full' });
    expect(result.extractor).toEqual({ rules: SYMBOLIC_EXTRACTOR_VERSION, model: null, transformer: false, note: NO_MODEL_NOTE });
    expect(result.graph.nodes[0].provenance[0].extractor).toBe(`${SYMBOLIC_EXTRACTOR_VERSION} + none`);
  });

  it('is deterministic: the same text gives the same graph', async () => {
    const first = await pipeline.extract({ text: SUDAN_SENTENCE, source: 's' }, { tier: 'full', ingestedAt: INGESTED_AT });
    const second = await pipeline.extract({ text: SUDAN_SENTENCE, source: 's' }, { tier: 'full', ingestedAt: INGESTED_AT });
    expect(second.graph).toEqual(first.graph);
  });

  it('fills only the essential kinds at the essential tier', async () => {
    const text = `${SUDAN_SENTENCE} The SAF and its allies oppose the RSF, and demand a ceasefire.`;
    const result = await pipeline.extract({ text, source: 's' }, { tier: 'essential' });
    expect(nodesOf(result, 'Issue')).toHaveLength(0);
    expect(result.graph.edges.filter((e) => ['ALLIED_WITH', 'OPPOSES', 'ABOUT'].includes(e.type))).toHaveLength(0);
  });

  it('reads a document longer than one symbolic chunk, with every span still indexing the whole text', async () => {
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
    const paragraphs: { text: string; iso: string }[] = [];
    for (let i = 0; paragraphs.reduce((n, p) => n + p.text.length + 2, 0) < SYMBOLIC_CHUNK_CHARS * 1.5; i++) {
      const day = (i % 28) + 1;
      const month = Math.floor(i / 28) % 12;
      const year = 2000 + Math.floor(i / (28 * 12));
      paragraphs.push({
        text: `On ${day} ${months[month]} ${year} the Rapid Support Forces attacked El Fasher. The army said it would respond.`,
        iso: `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      });
    }
    const text = paragraphs.map((p) => p.text).join('\n\n');
    const result = await pipeline.extract({ text, source: 'long.txt' }, { tier: 'essential', ingestedAt: INGESTED_AT });
    const assaults = nodesOf(result, 'Event').filter((e) => e.properties.event_type === 'ASSAULT');
    expect(assaults).toHaveLength(paragraphs.length);
    expect(new Set(assaults.map((e) => e.properties.date))).toEqual(new Set(paragraphs.map((p) => p.iso)));
    const late = assaults.filter((e) => e.provenance[0].span!.start > SYMBOLIC_CHUNK_CHARS);
    expect(late.length).toBeGreaterThan(10);
    for (const event of late) {
      const { start } = event.provenance[0].span!;
      const paragraph = paragraphs.find((p) => p.iso === event.properties.date)!;
      expect(text.slice(start, start + paragraph.text.length)).toContain(`${event.provenance[0].quote}`);
      expect(paragraph.text).toContain(String(event.provenance[0].quote));
    }
    expect(nodesOf(result, 'Actor').map((a) => a.properties.label).sort()).toEqual(['Rapid Support Forces']);
    expectSpansIndexText(result, text);
  });

  it('cuts chunks at paragraph breaks, then lines, then sentences, never losing a character', () => {
    const text = 'a'.repeat(60) + '\n\n' + 'b'.repeat(30) + '\n' + 'c'.repeat(50) + '. ' + 'd'.repeat(70);
    const bounds = chunkBounds(text, 100);
    expect(bounds[0]).toEqual([0, 62]);
    expect(text.slice(bounds[1][0], bounds[1][1]).endsWith('.' + ' ')).toBe(true);
    expect(bounds.map(([s, e]) => text.slice(s, e)).join('')).toBe(text);
    for (const [s, e] of bounds) expect(e - s).toBeLessThanOrEqual(100);
    expect(chunkBounds('x'.repeat(250), 100)).toEqual([[0, 100], [100, 200], [200, 250]]);
  });

  it('refuses empty, whitespace-only and over-long text with typed errors', async () => {
    for (const text of ['', '   \n\t ']) {
      const error = await pipeline.extract({ text, source: 's' }, { tier: 'full' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ParleyError);
      expect((error as ParleyError).code).toBe('empty_text');
    }
    const tooLong = 'a'.repeat(MAX_DOCUMENT_CHARS + 1);
    const error = await pipeline.extract({ text: tooLong, source: 's' }, { tier: 'full' }).catch((e: unknown) => e);
    expect((error as ParleyError).kind).toBe('too_large');
    expect((error as ParleyError).code).toBe('document_too_large');
  });
});

describe('extraction pipeline with a transformer model', () => {
  let model: TinyNerModel;
  let pipeline: ReturnType<typeof createExtractionPipeline>;

  beforeAll(async () => {
    model = await buildTinyNerModel({ noise: 0, taggedWords: { Amina: 'B-PER', Yusuf: 'I-PER', Kosti: 'B-LOC' } });
    pipeline = createExtractionPipeline({ ner: await createNerBackend({ modelDir: model.dir, workers: 1 }) });
  });
  afterAll(async () => {
    await pipeline?.close();
    await model?.remove();
  });

  it('adds NER-only people and places to the symbolic findings, and names the model', async () => {
    const text = `${SUDAN_SENTENCE} Amina Yusuf said aid reached Kosti.`;
    const result = await pipeline.extract({ text, source: 'sudan.txt' }, { tier: 'full' });
    expect(result.extractor.transformer).toBe(true);
    expect(result.extractor.model).toBeTruthy();
    expect(result.extractor.note).toBeUndefined();
    expect(result.stats.neural_entities).toBeGreaterThanOrEqual(2);
    expect(byLabel(nodesOf(result, 'Actor'), 'Amina Yusuf').properties.actor_type).toBe('individual');
    byLabel(nodesOf(result, 'Location'), 'Kosti');
    // The symbolic facts survive the merge.
    expect(byLabel(nodesOf(result, 'Actor'), 'Rapid Support Forces').properties.actor_type).toBe('armed_group');
    expect(nodesOf(result, 'Claim').some((c) => c.properties.type === 'RedLine')).toBe(true);
    expectSpansIndexText(result, text);
    expect(result.graph.nodes[0].provenance[0].extractor).toBe(`${SYMBOLIC_EXTRACTOR_VERSION} + ${result.extractor.model}`);
  });
});
