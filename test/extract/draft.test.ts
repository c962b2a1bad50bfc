import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline, documentIdOf, graphAnswers, sha256Of, type ExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { draftMessage, fileDraftMessage, knownDocuments, mayHold, readDraftMessage, readFileDraftMessage, type DocumentDraft, type FileDraft } from '../../engine/extract/draft.ts';
import { ProvenanceJson } from '../../engine/store/provenance-json.ts';
import { datelineDate } from '../../engine/extract/dateline.ts';
import { readSource } from '../../engine/extract/source.ts';
import { listCorpus } from '../../engine/ingest/batch.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { openStoreWithPipeline, type StoreWithPipeline } from '../helpers/store.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import type { NodeRecord } from '../../engine/ontology/index.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../corpora/sudan-drc-2024');
// two conflicts, so later documents meet actors the earlier ones put in the graph
const SOURCES = ['sudan-01-wad-madani.txt', 'sudan-02-igad-suspension.md', 'sudan-05-rsf-anniversary.txt', 'drc-01-sake-clashes.txt', 'drc-04-rwanda-mfa.txt'];
const TEXT = 'GOMA, 9 February 2024 - Kodiak met the envoy in Goma on Friday, and the Wazalendo fighters withdrew.';
const INPUT = { text: TEXT, source: 'goma.txt', document_date: '2024-02-09' };

function actor(label: string, aliases: string[] = []): NodeRecord {
  return { id: `actor_${label}`, labels: ['Actor'], properties: { label, actor_type: 'individual', aliases }, confidence: 1, provenance: [], recorded_at: '2024-01-01T00:00:00Z' };
}

describe('drafts: documents structured in the rule workers without their graph, resolved at commit', { timeout: 120_000 }, () => {
  let opened: StoreWithPipeline;
  let store: ParleyStore;
  let pipeline: ExtractionPipeline;

  beforeAll(async () => {
    opened = await openStoreWithPipeline('parley-draft-');
    ({ store, pipeline } = opened);
  });

  afterAll(() => opened.close());

  it('document after document, a resolved draft is what extraction against the graph gives', async () => {
    for (const source of SOURCES) {
      const read = await readSource(CORPUS, source);
      const date = datelineDate(read.text);
      const input = { text: read.text, source: read.source, ...(date ? { document_date: date } : {}) };
      const index = (await store.graphExists('t', 'g')) ? await store.loadGraph('t', 'g') : undefined;
      const draft = await pipeline.draft(input, { tier: 'full', ...(read.title ? { title: read.title } : {}) });
      const settings = { tier: 'full' as const, ingestedAt: draft.made.ingestedAt, ...(read.title ? { title: read.title } : {}) };
      const resolved = pipeline.resolve(draft, input, { ...settings, ...(index ? { graph: graphAnswers(index) } : {}) });
      const direct = await pipeline.extract(input, { ...settings, ...(index ? { graph: index } : {}) });
      expect(resolved, source).toBeDefined();
      expect(resolved!.graph).toEqual(direct.graph);
      expect(resolved!.document).toEqual(direct.document);
      expect({ ...resolved!.stats, ms: 0 }).toEqual({ ...direct.stats, ms: 0 });
      await store.writeGraph('t', 'g', direct.graph);
    }
    // the later documents did meet actors of the earlier ones
    const index = await store.loadGraph('t', 'g');
    const sources = (id: string) => new Set((index.node(id)?.provenance ?? []).map((record) => record.source));
    expect([...index.nodesWithLabel('Actor')].some((id) => sources(id).size > 1)).toBe(true);
  });

  it('every draft of the sample corpus crosses from a worker as JSON unchanged: no undefined, NaN, -0 or other value JSON would alter, its lists\' texts as serialising gives them', async () => {
    // drafted in this thread: a pooled pipeline's drafts have crossed as JSON already
    const here = createExtractionPipeline();
    const sources = await listCorpus(CORPUS);
    expect(sources.length).toBeGreaterThan(30);
    for (const source of sources) {
      const read = await readSource(CORPUS, source);
      const draft = await here.draft({ text: read.text, source: read.source }, { tier: 'full', dateline: true, ...(read.title ? { title: read.title } : {}) });
      expect(JSON.parse(JSON.stringify(draft)), source).toStrictEqual(draft);
      // as a draft message (worker.mjs), alone and in its file: the same draft, each list noted with the text JSON.stringify gives it
      const file: FileDraft = { kind: 'read', source: read.source, text: read.text, sha256: draft.made.sha256, draft };
      const received = readDraftMessage<DocumentDraft>(draftMessage(draft, draft, (bare) => bare), (value) => value);
      const receivedFile = readFileDraftMessage(fileDraftMessage(file));
      expect(received, source).toStrictEqual(draft);
      expect(receivedFile, source).toStrictEqual(file);
      const texts = new ProvenanceJson();
      for (const record of [...received.graph.nodes, ...received.graph.edges]) expect(texts.textFrom(record.provenance, 0)).toBe(JSON.stringify(record.provenance));
      expect(received.graph.nodes.some((node) => node.provenance.length > 0)).toBe(true);
    }
    const failed: FileDraft = { kind: 'failed', code: 'unreadable', reason: 'a \u0000 in a reason' };
    expect(readFileDraftMessage(fileDraftMessage(failed))).toStrictEqual(failed);
  });

  it('a name only the graph knows, or knows under another label, is the graph\'s: the draft does not stand, extraction finds it', async () => {
    const draft = await pipeline.draft(INPUT, { tier: 'full' });
    const settings = { tier: 'full' as const, ingestedAt: draft.made.ingestedAt };
    expect(pipeline.resolve(draft, INPUT, { ...settings, graph: graphAnswers(new GraphIndex()) })?.graph).toEqual(draft.graph);

    const knowsKodiak = GraphIndex.fromRecords([actor('Kodiak')], []);
    expect(pipeline.resolve(draft, INPUT, { ...settings, graph: graphAnswers(knowsKodiak) })).toBeUndefined();
    const withKodiak = await pipeline.extract(INPUT, { ...settings, graph: knowsKodiak });
    expect(withKodiak.graph.nodes.some((node) => node.properties.label === 'Kodiak')).toBe(true);
    expect(draft.graph.nodes.some((node) => node.properties.label === 'Kodiak')).toBe(false);

    const coalition = GraphIndex.fromRecords([actor('Wazalendo Coalition', ['Wazalendo'])], []);
    expect(pipeline.resolve(draft, INPUT, { ...settings, graph: graphAnswers(coalition) })).toBeUndefined();
    const merged = await pipeline.extract(INPUT, { ...settings, graph: coalition });
    expect(merged.graph.nodes.some((node) => node.properties.label === 'Wazalendo Coalition')).toBe(true);

    // an actor the graph knows by the very label the draft gave it changes nothing
    const same = GraphIndex.fromRecords([actor('Wazalendo')], []);
    expect(pipeline.resolve(draft, INPUT, { ...settings, graph: graphAnswers(same) })?.graph).toEqual((await pipeline.extract(INPUT, { ...settings, graph: same })).graph);
  });

  it('a draft made from another text, name, date, tier, title or ingestion time is not used', async () => {
    const draft = await pipeline.draft(INPUT, { tier: 'full', title: 'Goma' });
    const settings = { tier: 'full' as const, ingestedAt: draft.made.ingestedAt, title: 'Goma' };
    expect(pipeline.resolve(draft, INPUT, settings)).toBeDefined();
    expect(pipeline.resolve(draft, { ...INPUT, text: `${TEXT} More.` }, settings)).toBeUndefined();
    expect(pipeline.resolve(draft, { ...INPUT, source: 'other.txt' }, settings)).toBeUndefined();
    expect(pipeline.resolve(draft, { ...INPUT, document_date: '2024-02-10' }, settings)).toBeUndefined();
    expect(pipeline.resolve(draft, INPUT, { ...settings, tier: 'standard' })).toBeUndefined();
    expect(pipeline.resolve(draft, INPUT, { ...settings, title: 'Other' })).toBeUndefined();
    expect(pipeline.resolve(draft, INPUT, { ...settings, ingestedAt: '2020-01-01T00:00:00.000Z' })).toBeUndefined();
  });
});

describe('knownDocuments: the graph\'s documents as the workers that read a batch check them', () => {
  it('answers "perhaps" for every document the graph holds and "no" for other texts, leaving ids no text hashes to out', () => {
    const held = ['one', 'two', 'three'].map((text) => sha256Of(text));
    const known = knownDocuments([...held.map(documentIdOf), 'document_imported-by-a-user', 'doc-7']);
    expect(known.length).toBe(3);
    expect(known.buffer).toBeInstanceOf(SharedArrayBuffer);
    for (const sha256 of held) expect(mayHold(known, sha256)).toBe(true);
    for (const text of ['four', 'one ', '']) expect(mayHold(known, sha256Of(text))).toBe(false);
    expect(mayHold(knownDocuments([]), held[0])).toBe(false);
  });

  it('holds every one of thousands of documents, gathered past the size it starts with', () => {
    const held = Array.from({ length: 5_000 }, (_, i) => sha256Of(`text ${i}`));
    const known = knownDocuments(held.map(documentIdOf));
    expect(known.length).toBe(5_000);
    expect(held.every((sha256) => mayHold(known, sha256))).toBe(true);
    expect(Array.from({ length: 1_000 }, (_, i) => sha256Of(`other ${i}`)).some((sha256) => mayHold(known, sha256))).toBe(false);
  });
});
