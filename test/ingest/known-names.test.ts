import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownDocuments } from '../../engine/extract/draft.ts';
import { KnownNamesLog, readKnownNames, samePosition, type KnownNamesPosition } from '../../engine/extract/known-names.ts';
import type { DocumentDraft, ExtractionPipeline, GraphAnswers } from '../../engine/extract/pipeline.ts';
import type { ActorDirectory } from '../../engine/extract/structure/index.ts';
import { ingestFolder } from '../../engine/ingest/batch.ts';
import { commitDrafts, extractForGraph } from '../../engine/ingest/commit.ts';
import { readSource } from '../../engine/extract/source.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import type { GraphWrite } from '../../engine/store/validate.ts';
import { deriveNodeId } from '../../engine/store/ids.ts';
import { exportWithoutInstants } from '../helpers/graph-export.ts';
import { openStoreWithPipeline, type StoreWithPipeline } from '../helpers/store.ts';

/**
 * A batch drafts each document against the actor names and memberships it knows so far (a log in
 * shared memory the drafting workers read), and the commit takes a draft only when the graph answers
 * every question as the draft was answered.
 */

const FIRST = { 'a.txt': 'GOMA, 8 February 2024 - General Kodiak of the Wazalendo said his fighters would never leave Sake.' };
const SECOND = {
  // names Kodiak where no rule sees a name: drafted against nothing known, the graph (holding a.txt) refused it
  'b.txt': 'GOMA, 9 February 2024 - Kodiak met the envoy in Goma on Friday, and the Wazalendo fighters withdrew.',
  'e.txt': 'GOMA, 10 February 2024 - On 7 February 2024 the M23 rebels attacked Sake. Rwanda denied supporting the rebels, and Kodiak said the Wazalendo would hold Sake.',
};
const RETYPED = {
  // Kodiak again, written as a group's name: the same actor, its label and type changed
  'k.txt': 'GOMA, 11 February 2024 - KODIAK said the fighters would hold Sake.',
  // restate a.txt's membership and name no one new
  'r.txt': 'GOMA, 12 February 2024 - General Kodiak of the Wazalendo said his fighters would stay.',
  'q.txt': 'GOMA, 13 February 2024 - General Kodiak of the Wazalendo said his fighters would not leave.',
  // asks whether al-Burhan is a member of the Sudanese Armed Forces (c.txt states it)
  's.txt': 'KHARTOUM, 5 March 2024 - Abdel Fattah al-Burhan said the Sudanese Armed Forces would never negotiate with the Rapid Support Forces.',
};
const REPORT = 'KHARTOUM, 4 March 2024 - On 3 March 2024 the Rapid Support Forces attacked El Fasher, while General Abdel Fattah al-Burhan of the Sudanese Armed Forces said the army would never accept a ceasefire.';

describe('the names a batch drafts against', { timeout: 120_000 }, () => {
  let opened: StoreWithPipeline;
  let store: ParleyStore;
  let refused: number;
  /** The pooled pipeline, counting the drafts the graph refused (structured again against it). */
  let counting: ExtractionPipeline;
  const folders: Record<string, string> = {};

  beforeAll(async () => {
    opened = await openStoreWithPipeline('parley-known-names-');
    store = opened.store;
    const { pipeline } = opened;
    counting = {
      ...pipeline,
      resolve(draft, input, options) {
        const resolved = pipeline.resolve(draft, input, options);
        if (!resolved) refused++;
        return resolved;
      },
    };
    const root = path.dirname(store.snapshotDir);
    for (const [name, documents] of Object.entries({ first: FIRST, second: SECOND, retyped: RETYPED, report: { 'c.txt': REPORT } })) {
      folders[name] = path.join(root, `corpus-${name}`);
      await mkdir(folders[name]);
      for (const [file, text] of Object.entries(documents)) await writeFile(path.join(folders[name], file), text);
    }
  });

  afterAll(() => opened.close());

  /** The documents of `sources` (folder and file) ingested one at a time, in that order, into `graphId`. */
  const oneByOne = async (graphId: string, sources: readonly (readonly [string, string])[]) => {
    for (const [folder, source] of sources) {
      const { text, title } = await readSource(folder, source);
      await extractForGraph({ store, pipeline: opened.pipeline }, 't', graphId, { text, source, ...(title ? { title } : {}) }, { tier: 'full', commit: true });
    }
  };
  const exported = async (graphId: string) => exportWithoutInstants(await store.loadGraph('t', graphId));

  /** `source` of `folder` drafted in a worker against `log`, as a batch drafts it. */
  const drafted = async (folder: string, source: string, log: KnownNamesLog) => {
    const file = await opened.pipeline.draftFile!(folder, source, { tier: 'full', known: knownDocuments([]), names: log.shared });
    if (file.kind !== 'read' || !file.draft) throw new Error(`${source} not drafted`);
    return { text: file.text, source, ...(file.title ? { title: file.title } : {}), draft: file.draft as DocumentDraft };
  };

  it('reads in a worker what the log holds: names, memberships, more added, a larger log, and no more than its bound', () => {
    const log = new KnownNamesLog([{ label: 'Rapid Support Forces', aliases: ['RSF'], actor_type: 'armed_group' }, ['hemedti', 'rsf']]);
    let known = readKnownNames(log.shared);
    expect(known.directory.lookup('RSF')).toBe('Rapid Support Forces');
    expect(known.directory.lookup('Sudanese Armed Forces')).toBeUndefined();
    expect(known.isMemberOf('hemedti', 'rsf')).toBe(true);
    expect(known.isMemberOf('rsf', 'hemedti')).toBe(false);

    const generation = log.shared.generation;
    log.add([{ label: 'Sudanese Armed Forces', aliases: ['SAF'], actor_type: 'armed_forces' }]);
    expect(log.shared.generation).toBe(generation);
    known = readKnownNames(log.shared);
    expect(known.directory.lookup('SAF')).toBe('Sudanese Armed Forces');
    expect(known.directory.lookup('RSF')).toBe('Rapid Support Forces');

    // past the first 64 KiB: a new generation holding everything, read again from its start
    log.add(Array.from({ length: 2_000 }, (_, i) => ({ label: `Brigade Number ${i}`, aliases: [`Brigade ${i} of the North`] })));
    expect(log.shared.generation).not.toBe(generation);
    known = readKnownNames(log.shared);
    expect(known.directory.lookup('Brigade 1999 of the North')).toBe('Brigade Number 1999');
    expect(known.directory.lookup('RSF')).toBe('Rapid Support Forces');
    expect(known.isMemberOf('hemedti', 'rsf')).toBe(true);

    // a reset starts again with what is given: the names it leaves out are no longer known
    log.reset([{ label: 'Sudanese Armed Forces' }]);
    known = readKnownNames(log.shared);
    expect(known.directory.lookup('RSF')).toBeUndefined();
    expect(known.directory.lookup('Sudanese Armed Forces')).toBe('Sudanese Armed Forces');

    const bounded = new KnownNamesLog([], 100);
    bounded.add([{ label: 'Rapid Support Forces' }]);
    bounded.add([{ label: 'Sudanese Armed Forces', aliases: ['SAF', 'the army of the Sudan, in a very long alias that does not fit'] }]);
    // once full it takes no more, even what would fit
    bounded.add([{ label: 'Kodiak' }]);
    known = readKnownNames(bounded.shared);
    expect(known.directory.lookup('Rapid Support Forces')).toBe('Rapid Support Forces');
    expect(known.directory.lookup('SAF')).toBeUndefined();
    expect(known.directory.lookup('Kodiak')).toBeUndefined();
  });

  it('drafts a second batch against the first one\'s actors and memberships, refusing none, and builds the graph one by one ingest builds', async () => {
    await oneByOne('one-by-one', [...Object.keys(FIRST).map((source) => [folders.first, source] as const), ...Object.keys(SECOND).map((source) => [folders.second, source] as const)]);
    refused = 0;
    await ingestFolder({ store, pipeline: counting }, folders.first, { tenant: 't', graphId: 'batched', workers: 1 });
    await ingestFolder({ store, pipeline: counting }, folders.second, { tenant: 't', graphId: 'batched', workers: 1 });
    // drafted against nothing known, b.txt (Kodiak, whom only the graph knows) and e.txt (his membership) were refused
    expect(refused).toBe(0);
    expect(await exported('batched')).toEqual(await exported('one-by-one'));
  });

  it('takes a draft made where the log ends without asking its names again, and asks those of a draft made before', async () => {
    const log = new KnownNamesLog([{ label: 'Rapid Support Forces', aliases: ['RSF'], actor_type: 'armed_group' }]);
    const { text, draft } = await drafted(folders.report, 'c.txt', log);
    expect(draft.questions.against).toEqual(log.position);
    expect(draft.questions.answered.length).toBeGreaterThan(0);
    // a directory that knows nothing, whose answers differ from the draft's: asked, it refuses the draft
    const asked: string[] = [];
    const knowsNothing: ActorDirectory = {
      lookup: (name) => void asked.push(name),
      occurrences: () => (asked.push('occurrences'), []),
    };
    const graphAt = (logged: KnownNamesPosition): GraphAnswers => ({ directory: knowsNothing, isMemberOf: () => false, directoryIsLogAt: (position) => samePosition(logged, position) });
    const resolve = (graph: GraphAnswers) =>
      opened.pipeline.resolve(draft, { text, source: 'c.txt', ...(draft.made.document_date ? { document_date: draft.made.document_date } : {}) }, { tier: 'full', ingestedAt: draft.made.ingestedAt, ...(draft.made.title ? { title: draft.made.title } : {}), graph });

    expect(resolve(graphAt(log.position))?.graph).toEqual(draft.graph);
    expect(asked).toEqual([]);
    const drafts = log.position;
    log.add([{ label: 'Kodiak', actor_type: 'individual' }]);
    expect(resolve(graphAt(log.position))).toBeUndefined();
    expect(asked.length).toBeGreaterThan(0);
    expect(drafts.generation).toBe(log.position.generation);
  });

  it('asks a draft\'s names again once the graph changed where the log did not see it', async () => {
    const context = { store, pipeline: opened.pipeline };
    await ingestFolder(context, folders.first, { tenant: 't', graphId: 'unlogged', workers: 1 });
    const log = new KnownNamesLog();
    // a.txt again: the commit finds the log not in step with the graph and starts it again from the graph
    await commitDrafts(context, 't', 'unlogged', [await drafted(folders.first, 'a.txt', log)], { tier: 'full', knownNames: log });
    const e = await drafted(folders.second, 'e.txt', log);
    expect(e.draft.questions.answered.map(([name]) => name)).toContain('Wazalendo');
    // a user imports a group of that name in another spelling, unseen by the log: 'Wazalendo' now names neither
    await store.writeGraph('t', 'unlogged', { nodes: [{ id: 'wazalendo-imported', labels: ['Actor'], properties: { label: 'WAZALENDO', actor_type: 'armed_group' } }], edges: [] });
    refused = 0;
    const [outcome] = await commitDrafts({ store, pipeline: counting }, 't', 'unlogged', [e], { tier: 'full', knownNames: log });
    if ('error' in outcome) throw outcome.error;
    expect(refused).toBe(1);
  });

  it('keeps the memberships in the log when an actor changes mid-batch: a later document asking one is not refused', async () => {
    const context = { store, pipeline: opened.pipeline };
    const folderOf: Record<string, string> = { 'a.txt': folders.first, 'c.txt': folders.report, 'k.txt': folders.retyped };
    // the membership c.txt states is the graph's when k.txt changes Kodiak, or held with the change
    for (const [graphId, commits] of [['retyped-graph', [['a.txt', 'c.txt'], ['k.txt']]], ['retyped-held', [['a.txt'], ['c.txt', 'k.txt']]]] as const) {
      const log = new KnownNamesLog();
      const generations = new Set<number>();
      for (const sources of commits) {
        const documents = [];
        for (const source of sources) documents.push(await drafted(folderOf[source], source, log));
        generations.add(log.position.generation);
        await commitDrafts(context, 't', graphId, documents, { tier: 'full', knownNames: log });
      }
      // k.txt changed Kodiak's label and type: the log started again
      expect(generations).not.toContain(log.position.generation);
      const asking = await drafted(folders.retyped, 's.txt', log);
      expect(asking.draft.questions.members.length).toBeGreaterThan(0);
      refused = 0;
      const [outcome] = await commitDrafts({ store, pipeline: counting }, 't', graphId, [asking], { tier: 'full', knownNames: log });
      if ('error' in outcome) throw outcome.error;
      expect(refused).toBe(0);
    }
  });

  it('appends to the log only memberships it does not hold', async () => {
    const context = { store, pipeline: opened.pipeline };
    const log = new KnownNamesLog();
    // the first commit creates the graph: the second starts the log again from it
    for (const [folder, source] of [[folders.first, 'a.txt'], [folders.retyped, 'r.txt']]) {
      await commitDrafts(context, 't', 'restated', [await drafted(folder, source, log)], { tier: 'full', knownNames: log });
    }
    const after = log.position;
    const restated = await drafted(folders.retyped, 'q.txt', log);
    expect(restated.draft.graph.edges.some((edge) => edge.type === 'MEMBER_OF')).toBe(true);
    await commitDrafts(context, 't', 'restated', [restated], { tier: 'full', knownNames: log });
    expect(log.position).toEqual(after);
  });

  it('only refuses more drafts against a log that answers every kind of question wrongly, and builds the one-by-one graph', async () => {
    const context = { store, pipeline: opened.pipeline };
    const later = [[folders.second, 'b.txt'], [folders.second, 'e.txt'], [folders.report, 'c.txt'], [folders.retyped, 's.txt']] as const;
    await oneByOne('wrong-one-by-one', [[folders.first, 'a.txt'], ...later]);
    await oneByOne('wrong-batched', [[folders.first, 'a.txt']]);
    const actor = (label: string) => deriveNodeId('Actor', { label });
    const wrong = new KnownNamesLog([
      // answered, and occurrences (a name in the texts no extractor finds): Kodiak is another actor; names: the Wazalendo are left out
      { label: 'Kodiak Brigade', aliases: ['Kodiak'], actor_type: 'armed_group' },
      // memberships: al-Burhan is not a member of the Sudanese Armed Forces (c.txt says he is before s.txt asks)
      { label: 'Abdel Fattah al-Burhan', actor_type: 'individual' },
      { label: 'Sudanese Armed Forces', actor_type: 'armed_forces' },
      // members: Rwanda is a member of the M23, which no document says
      [actor('Rwanda'), actor('M23')],
    ]);
    const documents = [];
    for (const [folder, source] of later) documents.push(await drafted(folder, source, wrong));
    const questions = documents.map(({ draft }) => draft.questions);
    expect(questions.some(({ answered }) => answered.some(([, , label]) => label === 'Kodiak Brigade'))).toBe(true);
    expect(questions.some(({ names }) => names.includes('Wazalendo'))).toBe(true);
    expect(questions.some(({ known }) => known.length > 0)).toBe(true);
    expect(questions.some(({ members }) => members.length > 0)).toBe(true);
    expect(questions.some(({ memberships }) => memberships.some(([member, organisation]) => member === actor('Abdel Fattah al-Burhan') && organisation === actor('Sudanese Armed Forces')))).toBe(true);
    refused = 0;
    // a log no commit keeps in step: the commit asks the graph every question
    for (const outcome of await commitDrafts({ store, pipeline: counting }, 't', 'wrong-batched', documents, { tier: 'full' })) if ('error' in outcome) throw outcome.error;
    expect(refused).toBeGreaterThan(0);
    expect(await exported('wrong-batched')).toEqual(await exported('wrong-one-by-one'));
  });

  it('builds the one-by-one graph when a commit fails after its names went into the log', async () => {
    let failed = false;
    // the first commit of many documents at once fails: the names its documents held stay in the log, ahead of the graph
    const failing = new Proxy(store, {
      get(target, property) {
        if (property === 'writeGraphs' && !failed) {
          return async () => {
            failed = true;
            throw new Error('the disk is full');
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await ingestFolder({ store: failing, pipeline: opened.pipeline }, folders.first, { tenant: 't', graphId: 'ahead', workers: 1 });
    await ingestFolder({ store: failing, pipeline: opened.pipeline }, folders.retyped, { tenant: 't', graphId: 'ahead', workers: 1 });
    expect(failed).toBe(true);
    await oneByOne('ahead-one-by-one', [[folders.first, 'a.txt'], ...Object.keys(RETYPED).sort().map((source) => [folders.retyped, source] as const)]);
    expect(await exported('ahead')).toEqual(await exported('ahead-one-by-one'));
  });

  it('builds, from two batches and a single ingest at once, the graph one-by-one ingest builds in the order they committed', async () => {
    const committed: string[] = [];
    const sourcesOf = (write: GraphWrite) => write.nodes.filter((node) => node.labels[0] === 'Document').map((node) => String(node.properties.source));
    // records the order the documents went into the graph, which the three interleave
    const recording = new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'writeGraph') return (tenant: string, graphId: string, write: GraphWrite, ...rest: unknown[]) => (committed.push(...sourcesOf(write)), value.call(target, tenant, graphId, write, ...rest));
        if (property === 'writeGraphs') return (tenant: string, graphId: string, writes: GraphWrite[]) => (committed.push(...writes.flatMap(sourcesOf)), value.call(target, tenant, graphId, writes));
        return value.bind(target);
      },
    });
    const context = { store: recording, pipeline: opened.pipeline };
    const { text, title } = await readSource(folders.retyped, 'k.txt');
    await Promise.all([
      ingestFolder(context, folders.first, { tenant: 't', graphId: 'together', workers: 1 }),
      ingestFolder(context, folders.second, { tenant: 't', graphId: 'together', workers: 2 }),
      // changes Kodiak's label and type while the batches hold his names
      extractForGraph(context, 't', 'together', { text, source: 'k.txt', ...(title ? { title } : {}) }, { tier: 'full', commit: true }),
    ]);
    const folderOf = (source: string) => (source in FIRST ? folders.first : source in SECOND ? folders.second : folders.retyped);
    expect(new Set(committed)).toEqual(new Set(['a.txt', 'b.txt', 'e.txt', 'k.txt']));
    await oneByOne('together-one-by-one', committed.map((source) => [folderOf(source), source] as const));
    expect(await exported('together')).toEqual(await exported('together-one-by-one'));
  });

  it('refuses a draft made against names the graph does not answer alike, and structures it again against the graph', async () => {
    await oneByOne('report-one-by-one', [[folders.report, 'c.txt']]);

    // the log says the RSF is another actor, which no graph holds
    const wrong = new KnownNamesLog([{ label: 'Rapid Support Forces', actor_type: 'armed_group' }, { label: 'Rapid Support', aliases: ['RSF'], actor_type: 'armed_group' }]);
    const document = await drafted(folders.report, 'c.txt', wrong);
    expect(document.draft.questions.answered.length).toBeGreaterThan(0);
    refused = 0;
    const [outcome] = await commitDrafts({ store, pipeline: counting }, 't', 'report-batched', [document], { tier: 'full' });
    if ('error' in outcome) throw outcome.error;
    expect(refused).toBe(1);
    expect(await exported('report-batched')).toEqual(await exported('report-one-by-one'));
  });
});
