import type { WorkspaceTier } from '../ontology/index.ts';
import { SerialQueue } from '../store/serial-queue.ts';
import { mergeLabels, mergeNodeProperties } from '../store/merge.ts';
import type { ParleyStore, WriteSummary } from '../store/store.ts';
import { checkText, documentIdOf, graphAnswers, memberOf, type CheckedText, type DocumentDraft, type ExtractionPipeline, type ExtractionResult, type GraphAnswers } from '../extract/pipeline.ts';
import { actorDirectory, type GrowingActorDirectory, type KnownActor } from '../extract/structure/index.ts';
import type { NodeRecord } from '../ontology/index.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { nodesWrittenSince } from '../store/graph-changes.ts';
import type { DocumentInput } from '../extract/types.ts';
import { graphNames, knownActor, resolveAgainstGraph, sameNames, type ActorGraph, type GraphNames } from '../extract/graph-resolution.ts';
import { datelineDate } from '../extract/dateline.ts';
import { membershipKey, samePosition, type KnownEntry, type KnownNamesLog, type KnownNamesPosition } from '../extract/known-names.ts';

/**
 * Extraction committed to a graph. Re-extracting a document the graph already holds
 * reuses that document's source name and ingestion time, so the extraction comes out
 * identical and the store's merge writes nothing; a new document about the same
 * actors lands on the same nodes (ids from canonical labels, names resolved against
 * the graph's existing actors, known values kept by the store's merge).
 */

export interface CommitContext {
  store: ParleyStore;
  pipeline: ExtractionPipeline;
}

export interface DocumentToExtract {
  text: string;
  source: string;
  title?: string;
  document_date?: string;
  /** The document drafted ahead (draftAhead); extraction reads it again when absent or when the graph changes it. */
  draft?: DocumentDraft;
  /** Its text as checkText passed it where the document came in; checked here when absent. */
  checked?: CheckedText;
}

export interface CommitOptions {
  tier: WorkspaceTier;
  commit: boolean;
}

export type AddedCounts = Omit<WriteSummary, 'node_ids' | 'edge_ids' | 'graph_created'>;

export interface CommittedExtraction {
  extraction: ExtractionResult;
  /** True when the graph held this document (same text) before. */
  already_ingested: boolean;
  /** What the commit changed; null when nothing was committed. */
  added: AddedCounts | null;
  /** The commit created the graph. */
  graph_created: boolean;
}

/** Commits in progress per tenant and graph: each waits for the one before it. */
const graphCommits = new SerialQueue();

/**
 * Runs `task` after every earlier task for the same graph. A commit reads the graph
 * (is this document known? which actors exist?) before it writes; two at once could
 * both see the document as new and record it twice under different ingestion times.
 */
function oneAtATime<T>(tenant: string, graphId: string, task: () => Promise<T>): Promise<T> {
  return graphCommits.run(`${tenant}\u0000${graphId}`, task);
}

/**
 * Extracts one document for a graph and, when `commit`, merges it in (one atomic
 * batch: nothing is written when anything fails). Commits to one graph run one at a time.
 */
export async function extractForGraph(
  context: CommitContext,
  tenant: string,
  graphId: string,
  document: DocumentToExtract,
  options: CommitOptions,
): Promise<CommittedExtraction> {
  const checkedDocument = { ...document, checked: checkText(document.text, document.checked) };
  if (!options.commit) return extractAgainstGraph(context, tenant, graphId, checkedDocument, options);
  return oneAtATime(tenant, graphId, () => extractAgainstGraph(context, tenant, graphId, checkedDocument, options));
}

/** What extraction reads of a document: its text and name, with `documentDate` when it has one. */
function datedInput(text: string, source: string, documentDate: string | undefined): DocumentInput {
  return { text, source, ...(documentDate ? { document_date: documentDate } : {}) };
}

/**
 * The graph-independent part of extracting `document` (reading and structuring it, and dating
 * it by its dateline when it gives no date), run ahead of its commit in the pipeline's worker
 * pools, so that a batch keeps every worker busy while commits to one graph run one at a time.
 */
export function draftAhead(context: CommitContext, document: DocumentToExtract, tier: WorkspaceTier): Promise<DocumentDraft> {
  const checked = checkText(document.text, document.checked);
  return context.pipeline.draft(datedInput(document.text, document.source, document.document_date), { tier, checked, dateline: true, ...(document.title ? { title: document.title } : {}) });
}

async function extractAgainstGraph(
  context: CommitContext,
  tenant: string,
  graphId: string,
  document: DocumentToExtract,
  options: CommitOptions,
): Promise<CommittedExtraction> {
  const checked = checkText(document.text, document.checked);
  const index = (await context.store.graphExists(tenant, graphId)) ? await context.store.loadGraph(tenant, graphId) : undefined;
  const stored = index?.node(documentIdOf(checked.sha256));
  const storedSource = stored?.properties.source;
  const storedIngestedAt = stored?.properties.ingested_at;
  // the document's date: given, else read from its dateline
  const input = datedInput(document.text, typeof storedSource === 'string' ? storedSource : document.source, document.document_date ?? datelineDate(document.text));
  const settings = {
    tier: options.tier,
    ...(typeof storedIngestedAt === 'string' ? { ingestedAt: storedIngestedAt } : {}),
    ...(document.title ? { title: document.title } : {}),
  };
  // a draft needs only the graph-dependent step; one the graph changes is read and structured again here
  // the graph's actors, as the last commit left them and brought up to date, for the answers structuring asks and for resolveAgainstGraph
  const graphActors = index && takeGraphActors(index);
  const answers = index && graphAnswers(index, directoryOf(graphActors!));
  const drafted = document.draft && context.pipeline.resolve(document.draft, input, { ...settings, checked, ...(answers ? { graph: answers } : {}) });
  const extracted = drafted || (await context.pipeline.extract(input, { ...settings, checked, ...(answers ? { graph: answers } : {}) }));
  const extraction = index ? withGraphActors(extracted, index, graphActors!.names) : extracted;
  // as the graph holds them before this write, which the next commit reads from the log
  if (index) carriedActors.set(index, graphActors!);
  if (!options.commit) return { extraction, already_ingested: stored !== undefined, added: null, graph_created: false };
  const { node_ids: _nodeIds, edge_ids: _edgeIds, graph_created, ...added } = await context.store.writeGraph(tenant, graphId, extraction.graph);
  return { extraction, already_ingested: stored !== undefined, added, graph_created };
}

/** Extracted actors that are actors the graph holds (imported ones too) become those nodes (resolveAgainstGraph). */
function withGraphActors(extracted: ExtractionResult, graph: Pick<ActorGraph, 'node'>, names: GraphNames): ExtractionResult {
  const resolved = resolveAgainstGraph(extracted.graph, graph, names);
  if (resolved === extracted.graph) return extracted;
  return { ...extracted, graph: resolved, stats: { ...extracted.stats, nodes: resolved.nodes.length, edges: resolved.edges.length } };
}

/** A document drafted ahead (draftAhead), for commitDrafts. */
export type DraftedDocument = DocumentToExtract & { draft: DocumentDraft };

/** What commitDrafts gives each document: its commit, or what failed it. */
export type DraftOutcome = { committed: CommittedExtraction } | { error: unknown };

type ActorRecord = Pick<NodeRecord, 'labels' | 'properties'>;

/**
 * The graph's actors as a batch reads them. Kept for the graph from one commitDrafts call to
 * the next (a batch commits a few documents at a time, as their drafts come): read again from
 * the whole graph for each, they cost every document time that grew with the graph's actors. Brought up to date with the nodes written
 * since (nodesWrittenSince); read again when a change was not logged (a correction, a
 * deletion) or the graph was loaded again (another index).
 */
interface GraphActors {
  /** The graph's revision the actors are as of, before the writes of the batch holding them. */
  revision: number;
  actors: Map<string, ActorRecord>;
  /**
   * The actor directory, built once and added to as actors and names come. What it answers a
   * draft does not depend on the order of the actors (which every write changes): a name two
   * actors claim is neither's. Built again when an actor loses a name or changes label or type.
   */
  directory: GrowingActorDirectory | undefined;
  /** The actors' and places' names as resolveAgainstGraph matches them. */
  names: GraphNames;
  /**
   * Where the batch's log of names (known-names.ts) ends, when the directory answers as one built
   * from the log's entries does: every change of the directory since the log started again went into
   * it. A draft made there needs no name asked again (resolveDraft). Undefined: not known to.
   */
  logged?: KnownNamesPosition;
}

/** Each graph's actors as the last batch that committed left them; a batch takes them out while it holds writes. */
const carriedActors = new WeakMap<GraphIndex, GraphActors>();

/** The actors of `index` for a batch: those the last batch left, brought up to date, else read from the index. */
function takeGraphActors(index: GraphIndex | undefined): GraphActors {
  const carried = index && carriedActors.get(index);
  if (carried) {
    // out while this batch holds writes: nothing else reads names the graph does not hold yet
    carriedActors.delete(index!);
    const written = nodesWrittenSince(index!, carried.revision);
    if (written && written.every((id) => index!.node(id))) {
      for (const id of written) {
        const node = index!.node(id)!;
        if (node.labels[0] === 'Actor') {
          // a change the batch's log of names did not see
          if (putActor(carried, id, node)) carried.logged = undefined;
        } else if (node.labels[0] === 'Location') carried.names.places.set(id, node.properties);
      }
      carried.revision = index!.revision;
      return carried;
    }
  }
  const actorIds = [...(index?.nodesWithLabel('Actor') ?? [])];
  // the graph's actors walked once, for the names too
  const names = graphNames(index && { node: (id) => index.node(id), nodesWithLabel: (label) => (label === 'Actor' ? actorIds : index.nodesWithLabel(label)) });
  const state: GraphActors = { revision: index?.revision ?? 0, actors: new Map(), directory: undefined, names };
  for (const id of actorIds) state.actors.set(id, index!.node(id)!);
  return state;
}

/** The actor directory of `state`: kept, else built from its actors. */
function directoryOf(state: GraphActors): GrowingActorDirectory {
  state.directory ??= actorDirectory(knownActors(state.actors.values()));
  return state.directory;
}

/**
 * Sets what actor `id` is now, its names and the directory kept in step. Returns how the directory
 * changed: the actor added (new, or with more names), 'rebuilt' (a name gone, a label or type
 * changed), or undefined (not at all).
 */
function putActor(state: GraphActors, id: string, after: ActorRecord): KnownActor | 'rebuilt' | undefined {
  const before = state.actors.get(id);
  state.actors.set(id, after);
  state.names.actors.set(id, after.properties);
  // properties a merge left unchanged are the same object (mergeNodeProperties): names and type as they were
  if (before?.properties === after.properties) return undefined;
  const known = knownActor(after.properties);
  const previously = knownActor(before?.properties);
  if (sameNamesAndType(known, previously)) return undefined;
  // a new actor, or more names of one held: added to the directory; a name gone, a label or type changed: built again
  if (known && (!previously || namesGrew(previously, known))) {
    state.directory?.add(known);
    return known;
  }
  state.directory = undefined;
  return 'rebuilt';
}

/** Appends `entries` to `log`, and keeps `state.logged` at its end when it was there and they went in. */
function addToLog(state: GraphActors, log: KnownNamesLog, entries: KnownEntry[]): void {
  const before = log.position;
  const added = log.add(entries);
  state.logged = added && samePosition(state.logged, before) ? log.position : undefined;
}

/** The graph's actors' names and MEMBER_OF pairs, as a KnownNamesLog starts from. */
export function* knownEntries(graph: GraphIndex): Iterable<KnownEntry> {
  yield* knownActors([...graph.nodesWithLabel('Actor')].map((id) => graph.node(id)!));
  yield* graphMemberships(graph);
}

/** The graph's MEMBER_OF pairs. */
function* graphMemberships(graph: GraphIndex): Iterable<KnownEntry> {
  for (const id of graph.edgesWithType('MEMBER_OF')) {
    const { from, to } = graph.edge(id)!;
    yield [from, to];
  }
}

/** The actors of `records` as the actor directory reads them. */
function* knownActors(records: Iterable<Pick<NodeRecord, 'properties'>>): Iterable<KnownActor> {
  for (const { properties } of records) {
    const actor = knownActor(properties);
    if (actor) yield actor;
  }
}

/** Whether `after` is `before` with (perhaps) more aliases: the same label and type, every alias kept. */
function namesGrew(before: KnownActor, after: KnownActor): boolean {
  return before.label === after.label && before.actor_type === after.actor_type && (before.aliases ?? []).every((alias) => after.aliases?.includes(alias));
}

/**
 * Documents held back for one batch, and what the graph will answer once they are in it:
 * its actors (GraphActors) with the held writes merged in, the memberships and the documents
 * the held writes add.
 */
class HeldWrites {
  readonly writes: { position: number; extraction: ExtractionResult }[] = [];
  private readonly graphActors: GraphActors;
  /** The held writes' places as the graph will hold them (the index's others are read from it). */
  private readonly places = new Map<string, ActorRecord>();
  /** The held writes' MEMBER_OF pairs the index does not hold, by membershipKey. */
  private readonly memberships = new Map<string, [member: string, organisation: string]>();
  private readonly documents = new Set<string>();
  private readonly indexMemberOf: GraphAnswers['isMemberOf'] | undefined;

  constructor(
    private readonly index: GraphIndex | undefined,
    /** The batch's drafting workers' names (known-names.ts), kept in step with the actors held. */
    private readonly log: KnownNamesLog | undefined,
  ) {
    this.indexMemberOf = index && memberOf(index);
    this.graphActors = takeGraphActors(index);
    // a log the directory is not known to answer as starts again from the graph: the drafts made from then on need no name asked again
    if (log && !samePosition(this.graphActors.logged, log.position)) this.restartLog(log);
  }

  /** Starts `log` again with every actor and membership the graph will hold once the held writes are in. */
  private restartLog(log: KnownNamesLog): void {
    this.graphActors.logged = log.reset(this.knownEntries()) ? log.position : undefined;
  }

  private *knownEntries(): Iterable<KnownEntry> {
    yield* knownActors(this.graphActors.actors.values());
    if (this.index) yield* graphMemberships(this.index);
    yield* this.memberships.values();
  }

  /** Keeps the log in step with a change of the directory (putActor); without a log, the directory is no longer known to answer as one. */
  private logChange(change: KnownActor | 'rebuilt'): void {
    if (!this.log) this.graphActors.logged = undefined;
    else if (change === 'rebuilt') this.restartLog(this.log);
    else addToLog(this.graphActors, this.log, [change]);
  }

  /** The actors' and places' names as resolveAgainstGraph matches them: read from the index once, kept in step by hold(). */
  get names(): GraphNames {
    return this.graphActors.names;
  }

  /** Leaves the actors, as the graph now holds them once the held writes are in, to the graph's next batch. */
  carryOver(): void {
    if (this.index) carriedActors.set(this.index, this.graphActors);
  }

  /** The graph's actors and places as resolveAgainstGraph looks them up by id, with the held writes merged in. */
  readonly actorGraph: Pick<ActorGraph, 'node'> = { node: (id) => this.graphActors.actors.get(id) ?? this.place(id) };

  private place(id: string): ActorRecord | undefined {
    const node = this.places.get(id) ?? this.index?.node(id);
    return node?.labels[0] === 'Location' ? node : undefined;
  }

  knows(documentId: string): boolean {
    return this.documents.has(documentId) || this.index?.node(documentId) !== undefined;
  }

  answers(): GraphAnswers {
    return {
      directory: directoryOf(this.graphActors),
      isMemberOf: (member, organisation) => this.isMemberOf(member, organisation),
      directoryIsLogAt: (position) => samePosition(this.graphActors.logged, position),
    };
  }

  private isMemberOf(member: string, organisation: string): boolean {
    return this.memberships.has(membershipKey(member, organisation)) || (this.indexMemberOf?.(member, organisation) ?? false);
  }

  hold(position: number, extraction: ExtractionResult): void {
    this.writes.push({ position, extraction });
    this.documents.add(extraction.document.id);
    for (const node of extraction.graph.nodes) {
      if (node.labels[0] === 'Location') {
        const before = this.place(node.id);
        const labels = mergeLabels(before?.labels, node.labels);
        const after = { labels, properties: mergeNodeProperties(before, node, labels) };
        this.places.set(node.id, after);
        this.names.places.set(node.id, after.properties);
      }
      if (node.labels[0] !== 'Actor') continue;
      // every node of a new document carries that document's provenance, so the write changes (and moves) it
      const before = this.graphActors.actors.get(node.id);
      const labels = mergeLabels(before?.labels, node.labels);
      const change = putActor(this.graphActors, node.id, { labels, properties: mergeNodeProperties(before, node, labels) });
      if (change) this.logChange(change);
    }
    for (const edge of extraction.graph.edges) {
      // a pair the graph holds already is in the log already: the log grows (and the drafts' position moves) only with what is new
      if (edge.type !== 'MEMBER_OF' || this.isMemberOf(edge.from, edge.to)) continue;
      this.memberships.set(membershipKey(edge.from, edge.to), [edge.from, edge.to]);
      if (this.log) addToLog(this.graphActors, this.log, [[edge.from, edge.to]]);
    }
  }
}

/** Whether two actors (or none) have the same label, aliases in the same order, and type. */
function sameNamesAndType(a: KnownActor | undefined, b: KnownActor | undefined): boolean {
  if (!a || !b) return a === b;
  return a.actor_type === b.actor_type && sameNames(a, b);
}

/**
 * Commits drafted documents in their order, with the outcome extractForGraph one after the
 * other gives, in as few atomic batches as their drafts allow. Each draft is resolved
 * against the graph as the documents before it leave it: the graph's actors and
 * memberships with those of the documents held for the same batch merged in, as the store
 * will merge them. A document the graph already holds, or whose draft the graph changes,
 * first has the held ones written, then goes the way of extractForGraph. Each batch holds
 * every held document's Document node with its data, so a document is in the graph
 * wholly or not at all. A batch that fails is retried one document at a time, so a bad
 * document fails alone.
 */
export async function commitDrafts(
  context: CommitContext,
  tenant: string,
  graphId: string,
  documents: readonly DraftedDocument[],
  options: { tier: WorkspaceTier; knownNames?: KnownNamesLog },
): Promise<DraftOutcome[]> {
  const single = (document: DocumentToExtract) => settle(() => extractAgainstGraph(context, tenant, graphId, document, { tier: options.tier, commit: true }));
  return oneAtATime(tenant, graphId, async () => {
    const outcomes: DraftOutcome[] = [];
    let held: HeldWrites | undefined;
    const flush = async () => {
      const batch = held;
      held = undefined;
      const writes = batch?.writes ?? [];
      let summaries: WriteSummary[] | undefined;
      try {
        if (writes.length > 0) summaries = await context.store.writeGraphs(tenant, graphId, writes.map(({ extraction }) => extraction.graph));
      } catch {
        // the actors it held are not carried over: the graph does not hold them
        for (const { position } of writes) outcomes[position] = await single(documents[position]);
        return;
      }
      batch?.carryOver();
      if (!summaries) return;
      writes.forEach(({ position, extraction }, i) => {
        const { node_ids: _nodeIds, edge_ids: _edgeIds, graph_created, ...added } = summaries[i];
        outcomes[position] = { committed: { extraction, already_ingested: false, added, graph_created } };
      });
    };
    for (const [position, document] of documents.entries()) {
      let known = false;
      try {
        held ??= new HeldWrites((await context.store.graphExists(tenant, graphId)) ? await context.store.loadGraph(tenant, graphId) : undefined, options.knownNames);
        // the draft's date is the document's (given, else read from its dateline when drafted)
        const input = datedInput(document.text, document.source, document.draft.made.document_date);
        const settings = { tier: options.tier, ...(document.title ? { title: document.title } : {}), ...(document.checked ? { checked: document.checked } : {}) };
        known = held.knows(documentIdOf(document.draft.made.sha256));
        const drafted = !known && context.pipeline.resolve(document.draft, input, { ...settings, graph: held.answers() });
        if (drafted) {
          held.hold(position, withGraphActors(drafted, held.actorGraph, held.names));
          continue;
        }
      } catch (error) {
        outcomes[position] = { error };
        continue;
      }
      await flush();
      // a draft the held writes refused, the graph (now holding them) refuses too: not asked twice
      outcomes[position] = await single(known ? document : { ...document, draft: undefined });
    }
    await flush();
    return outcomes;
  });
}

async function settle(commit: () => Promise<CommittedExtraction>): Promise<DraftOutcome> {
  try {
    return { committed: await commit() };
  } catch (error) {
    return { error };
  }
}
