import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../../engine/errors.ts';
import { checkText, createExtractionPipeline, type CheckedText } from '../../engine/extract/pipeline.ts';
import { ingest, tierForGraph, type IngestContext, type IngestedDocument } from '../../engine/ingest/ingest.ts';
import { deriveNodeId } from '../../engine/store/ids.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { SUDAN_SENTENCE } from '../extract/structure/fixtures.ts';

const SAMPLE_CORPUS = path.resolve(import.meta.dirname, '../../corpora');
const SAMPLES = ['sudan-el-fasher.txt', 'sudan-jeddah-talks.md', 'sudan-rsf-statement.txt', 'drc-goma-m23.html'];

const SECOND_DOCUMENT =
  'On 10 March 2024 the RSF shelled Nyala. The Sudanese Armed Forces said the Rapid Support Forces must withdraw from Nyala.';

let base: string;
let store: ParleyStore;
let context: IngestContext;
const TENANT = 'acme';

/** `target` with its method `key` replaced by what `wrap` makes of the original (bound to `target`); every other member as it is. */
function withMethod<T extends object, K extends keyof T>(target: T, key: K, wrap: (original: T[K]) => T[K]): T {
  return new Proxy(target, {
    get(object, member) {
      const value = Reflect.get(object, member, object);
      if (typeof value !== 'function') return value;
      const bound = value.bind(object);
      return member === key ? wrap(bound) : bound;
    },
  });
}

const found = (result: IngestedDocument, kind: string) => result.extraction.graph.nodes.filter((node) => node.labels[0] === kind).length;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'parley-ingest-'));
  const corporaDir = path.join(base, 'corpora');
  await mkdir(corporaDir);
  for (const sample of SAMPLES) await copyFile(path.join(SAMPLE_CORPUS, sample), path.join(corporaDir, sample));
  await writeFile(path.join(corporaDir, 'first.txt'), SUDAN_SENTENCE);
  await writeFile(path.join(corporaDir, 'second.txt'), SECOND_DOCUMENT);
  await writeFile(path.join(corporaDir, 'image.txt'), Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x10]));
  store = await ParleyStore.open(path.join(base, 'store'));
  context = { store, pipeline: createExtractionPipeline(), corporaDir };
});

afterAll(async () => {
  await context.pipeline.close();
  await store.close();
  await rm(base, { recursive: true, force: true });
});

describe('ingest', () => {
  it('ingests a file, and ingesting it again (by any reference, or inline) adds nothing', async () => {
    const first = await ingest(context, TENANT, 'twice', { source: 'first.txt' });
    expect(first).toMatchObject({ format: 'text', already_ingested: false });
    expect(first.extraction.document.source).toBe('first.txt');
    expect(first.added.nodes_created).toBeGreaterThanOrEqual(6);
    expect(first.added.edges_created).toBeGreaterThan(first.added.nodes_created);
    expect(first.summary.nodes).toMatchObject({ Actor: 3, Document: 1, Claim: 1, Event: 1, Location: 1 });
    expect(first.summary.node_count).toBe(first.added.nodes_created);

    for (const again of [{ source: 'first.txt' }, { source: `file://${context.corporaDir}/first.txt` }, { source: 'pasted', text: SUDAN_SENTENCE }]) {
      const result = await ingest(context, TENANT, 'twice', again);
      expect(result.added).toEqual({ nodes_created: 0, nodes_updated: 0, edges_created: 0, edges_updated: 0 });
      expect(result.extraction.document).toMatchObject({ id: first.extraction.document.id, source: 'first.txt' });
      expect(result.already_ingested).toBe(true);
      expect(result.summary).toEqual(first.summary);
    }
  });

  it('records a document once when the same one is ingested several times at once', async () => {
    const results = await Promise.all([1, 2, 3].map(() => ingest(context, TENANT, 'concurrent', { source: 'first.txt' })));
    expect(results.map((r) => r.already_ingested).sort()).toEqual([false, true, true]);
    const created = results.reduce((sum, r) => sum + r.added.nodes_created + r.added.nodes_updated + r.added.edges_updated, 0);
    expect(created).toBe(results.find((r) => !r.already_ingested)!.added.nodes_created);
    const index = await store.loadGraph(TENANT, 'concurrent');
    const documentNode = index.node(results[0].extraction.document.id)!;
    expect(documentNode.provenance).toHaveLength(1);
  });

  it('merges a second document about the same actors into the same nodes, keeping both provenances', async () => {
    const first = await ingest(context, TENANT, 'merge', { source: 'first.txt' });
    const second = await ingest(context, TENANT, 'merge', { source: 'second.txt' });
    expect(second.extraction.document.id).not.toBe(first.extraction.document.id);
    expect(second.summary.nodes.Actor).toBe(first.summary.nodes.Actor);
    expect(second.summary.nodes.Document).toBe(2);
    expect(second.added.nodes_updated).toBeGreaterThanOrEqual(2);

    const index = await store.loadGraph(TENANT, 'merge');
    for (const label of ['Rapid Support Forces', 'Sudanese Armed Forces']) {
      const node = index.node(deriveNodeId('Actor', { label }))!;
      expect(node, label).toBeDefined();
      const documents = new Set(node.provenance.map((record) => record.document_id));
      expect(documents).toEqual(new Set([first.extraction.document.id, second.extraction.document.id]));
      const mentionedIn = index.edgesOf(node.id, 'out', ['MENTIONED_IN']).map((edge) => edge.to);
      expect(new Set(mentionedIn)).toEqual(new Set([first.extraction.document.id, second.extraction.document.id]));
    }
    const rsf = index.node(deriveNodeId('Actor', { label: 'Rapid Support Forces' }))!;
    expect(rsf.properties.aliases).toContain('RSF');
    expect(rsf.properties.actor_type).toBe('armed_group');
  });

  it('merges the issues and interests of two documents into one node each, with every claim ABOUT it', async () => {
    const first = await ingest(context, TENANT, 'issues', {
      source: 'demand', text: 'The Rapid Support Forces demanded a ceasefire in order to protect our people.',
    });
    const second = await ingest(context, TENANT, 'issues', {
      source: 'refusal', text: 'The Sudanese Armed Forces said they would never accept a ceasefire in order to protect our people.',
    });
    expect(first.summary.nodes.Issue).toBe(1);
    expect(second.summary.nodes.Issue).toBe(1);
    expect(second.summary.nodes.Interest).toBe(1);
    const index = await store.loadGraph(TENANT, 'issues');
    const ceasefire = deriveNodeId('Issue', { label: 'ceasefire' });
    const claims = index.edgesOf(ceasefire, 'in', ['ABOUT']).map((edge) => index.node(edge.from)!.properties.type);
    expect(claims.sort()).toEqual(['Demand', 'RedLine']);
    expect(new Set(index.node(ceasefire)!.provenance.map((record) => record.source))).toEqual(new Set(['demand', 'refusal']));
    const interest = deriveNodeId('Interest', { label: 'protect people', interest_type: 'security' });
    const holders = index.edgesOf(interest, 'in', ['HOLDS_INTEREST']).map((edge) => index.node(edge.from)!.properties.label);
    expect(holders.sort()).toEqual(['Rapid Support Forces', 'Sudanese Armed Forces']);
  });

  it('recognises in a later document a name only an earlier document defined', async () => {
    const first = await ingest(context, TENANT, 'aliases', { source: 'djpf-1', text: 'On 2 May 2024 the Darfur Joint Protection Force (DJPF) attacked Tawila.' });
    const second = await ingest(context, TENANT, 'aliases', { source: 'djpf-2', text: 'On 9 May 2024 DJPF fighters entered Kutum.' });
    expect(second.summary.nodes.Actor).toBe(first.summary.nodes.Actor);
    const index = await store.loadGraph(TENANT, 'aliases');
    const djpf = index.node(deriveNodeId('Actor', { label: 'Darfur Joint Protection Force' }))!;
    expect(djpf.provenance.map((record) => [record.source, record.quote])).toContainEqual(['djpf-2', 'DJPF']);
    expect(index.edgesOf(djpf.id, 'out', ['MENTIONED_IN']).map((edge) => edge.to)).toContain(second.extraction.document.id);
  });

  it('reads every sample document of the corpus, HTML and Markdown included', async () => {
    for (const sample of SAMPLES) {
      const result = await ingest(context, TENANT, 'samples', { source: sample });
      expect(result.added.nodes_created, sample).toBeGreaterThan(0);
      expect(found(result, 'Actor'), sample).toBeGreaterThanOrEqual(2);
    }
    const index = await store.loadGraph(TENANT, 'samples');
    const html = [...index.nodes.values()].find((node) => node.properties.source === 'drc-goma-m23.html')!;
    expect(html.properties).toMatchObject({ title: 'M23 advances on Goma as Kinshasa rejects talks', published_at: '2024-02-09' });
    // Undated statements in a dated document carry the document's date; dated events their own.
    const wire = [...index.nodes.values()].find((node) => node.properties.source === 'sudan-el-fasher.txt')!;
    expect(wire.properties.published_at).toBe('2024-03-04');
    const claims = [...index.nodes.values()].filter((node) => node.labels[0] === 'Claim' && node.provenance[0].source === 'sudan-el-fasher.txt');
    expect(claims.length).toBeGreaterThan(2);
    for (const claim of claims) expect(claim.provenance[0].timestamp).toBe('2024-03-04');
    // The Sudan documents talk about the same parties: one node each across all of them.
    const saf = index.node(deriveNodeId('Actor', { label: 'Sudanese Armed Forces' }))!;
    expect(new Set(saf.provenance.map((record) => record.source)).size).toBeGreaterThanOrEqual(3);
    for (const node of index.nodes.values()) {
      for (const record of node.provenance) expect(record.quote?.length ?? 0, node.id).toBeGreaterThan(0);
    }
  });

  it('fills only what the tier of the workspace writing into the graph allows', async () => {
    await store.createWorkspace(TENANT, { name: 'lean', domain: 'armed', scale: 'macro', tier: 'essential', graph_id: 'lean' });
    const result = await ingest(context, TENANT, 'lean', { source: 'sudan-jeddah-talks.md' });
    expect(result.summary.nodes.Issue).toBeUndefined();
    expect(result.summary.edges.ABOUT).toBeUndefined();
    const full = await ingest(context, TENANT, 'rich', { source: 'sudan-jeddah-talks.md' });
    expect(full.summary.nodes.Issue).toBeGreaterThan(0);
  });

  it('writes nothing when the source is refused, and creates no graph', async () => {
    const refusals: [object, string][] = [
      [{ source: '../store/CURRENT.txt' }, 'source_outside_root'],
      [{ source: '/etc/hostname.txt' }, 'source_outside_root'],
      [{ source: 'missing.txt' }, 'source_not_found'],
      [{ source: 'image.txt' }, 'source_not_text'],
      [{ source: 'blank', text: '  \n ' }, 'empty_text'],
    ];
    for (const [request, code] of refusals) {
      const error = await ingest(context, TENANT, 'refused', request as { source: string }).catch((e: unknown) => e);
      expect(error, JSON.stringify(request)).toBeInstanceOf(ParleyError);
      expect((error as ParleyError).code).toBe(code);
    }
    expect(await store.graphExists(TENANT, 'refused')).toBe(false);
  });

  it("reads the graph's actors once per ingest and hands the checked text on to extraction", async () => {
    await ingest(context, TENANT, 'once', { source: 'first.txt' });
    const walked: string[] = [];
    const extractedWith: (CheckedText | undefined)[] = [];
    const counting: IngestContext = {
      ...context,
      store: withMethod(store, 'loadGraph', (load) => async (...args: Parameters<ParleyStore['loadGraph']>) =>
        withMethod(await load(...args), 'nodesWithLabel', (walk) => (label: string) => {
          walked.push(label);
          return walk(label);
        })),
      pipeline: {
        ...context.pipeline,
        extract: (input, options) => {
          extractedWith.push(options.checked);
          return context.pipeline.extract(input, options);
        },
      },
    };
    // a document with actors the graph does not hold by id, so that resolution looks them up by name
    const second = await ingest(counting, TENANT, 'once', { source: 'sudan-jeddah-talks.md' });
    expect(second.added.nodes_created).toBeGreaterThan(0);
    expect(walked.filter((label) => label === 'Actor')).toHaveLength(1);
    expect(extractedWith).toHaveLength(1);
    expect(extractedWith[0]?.sha256).toBe(second.extraction.document.sha256);
    expect(checkText(extractedWith[0]!.text, extractedWith[0])).toBe(extractedWith[0]);
  });

  it("reads a large graph's actors once, not again for each later ingest, and still resolves against the actors they add", async () => {
    await ingest(context, TENANT, 'carried', { source: 'first.txt' });
    const index = await store.loadGraph(TENANT, 'carried');
    const walked: string[] = [];
    const walk = index.nodesWithLabel.bind(index);
    index.nodesWithLabel = (label: string) => {
      walked.push(label);
      return walk(label);
    };
    await ingest(context, TENANT, 'carried', { source: 'sudan-jeddah-talks.md' });
    const walkedBefore = walked.filter((label) => label === 'Actor').length;
    const third = await ingest(context, TENANT, 'carried', { source: 'sudan-rsf-statement.txt' });
    expect(walked.filter((label) => label === 'Actor')).toHaveLength(walkedBefore);
    // the third document's actors that the second brought are the second's nodes
    const jeddahActors = new Set([...index.nodesWithLabel('Actor')].filter((id) => index.node(id)!.provenance.some((record) => record.source === 'sudan-jeddah-talks.md')));
    expect(third.extraction.graph.nodes.filter((node) => node.labels[0] === 'Actor' && jeddahActors.has(node.id)).length).toBeGreaterThan(0);
  });

  it('checks a text again unless the record handed on is the one checkText made for it', () => {
    const made = checkText(SECOND_DOCUMENT);
    expect(checkText(SECOND_DOCUMENT, made)).toBe(made);
    const forged = { text: SECOND_DOCUMENT, sha256: 'forged' };
    expect(checkText(SECOND_DOCUMENT, forged).sha256).toBe(made.sha256);
    const error = (() => {
      try {
        return checkText(' ', made);
      } catch (e) {
        return e;
      }
    })();
    expect((error as ParleyError).code).toBe('empty_text');
  });

  it('keeps graphs of different tenants apart', async () => {
    await ingest(context, 'tenant-a', 'shared-name', { source: 'first.txt' });
    const other = await ingest(context, 'tenant-b', 'shared-name', { source: 'first.txt' });
    expect(other.already_ingested).toBe(false);
    expect(other.added.nodes_created).toBeGreaterThan(0);
  });
});

describe('tierForGraph', () => {
  it('is the richest tier among the workspaces naming the graph, full when none does', async () => {
    expect(await tierForGraph(store, TENANT, 'tiered')).toBe('full');
    const lean = await store.createWorkspace(TENANT, { name: 'lean', domain: 'armed', scale: 'macro', tier: 'essential', graph_id: 'tiered' });
    expect(await tierForGraph(store, TENANT, 'tiered')).toBe('essential');
    const middle = await store.createWorkspace(TENANT, { name: 'middle', domain: 'armed', scale: 'macro', tier: 'standard', graph_id: 'tiered' });
    await store.createWorkspace(TENANT, { name: 'elsewhere', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'other-graph' });
    await store.createWorkspace('other-tenant', { name: 'theirs', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'tiered' });
    expect(await tierForGraph(store, TENANT, 'tiered')).toBe('standard');
    await store.deleteWorkspace(TENANT, middle.id);
    expect(await tierForGraph(store, TENANT, 'tiered')).toBe('essential');
    await store.deleteWorkspace(TENANT, lean.id);
    expect(await tierForGraph(store, TENANT, 'tiered')).toBe('full');
  });
});
