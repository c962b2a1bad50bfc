/**
 * extraction-shape: the ratios of the graph the symbolic extraction makes of the project's corpora, beside those of the
 * generated graph in the extracted shape (conflict-graph.ts `generate(n, { extracted: true })`), so that the generator's
 * ratios can be taken from, and checked against, what extraction makes. Each corpus folder is ingested in process
 * (`ingestFolder`, no NER model) into a graph of its own in a store under a temp directory, removed at the end.
 *
 *   npx tsx bench/extraction-shape.ts [--generated 1000000] [folders…]
 *
 * The folders default to corpora/sudan-drc-2024, corpora/gold/documents-src and corpora/gold/documents-dev-src.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './conflict-graph.ts';
import { positiveIntegerFlag } from './stats.ts';
import { openExtractionPipeline } from '../engine/extract/pipeline.ts';
import { ingestFolder } from '../engine/ingest/batch.ts';
import type { PropertyValue } from '../engine/ontology/index.ts';
import { ParleyStore } from '../engine/store/store.ts';

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { generated: { type: 'string', default: '1000000' } } });
// checked before the corpora's half minute of ingest: a size that is not a whole number would generate an empty graph
const generatedSize = positiveIntegerFlag('generated', args.generated);
const folders = positionals.length ? positionals : ['corpora/sudan-drc-2024', 'corpora/gold/documents-src', 'corpora/gold/documents-dev-src'];

interface ShapeNode { id: string; labels: string[]; properties?: Record<string, PropertyValue> }
interface ShapeEdge { type: string; from: string; to: string }
/** One graph's nodes and edges; the ids of one graph are not those of another. */
interface ShapeGraph { nodes: ShapeNode[]; edges: ShapeEdge[] }

const share = (part: number, whole: number) => (whole ? part / whole : 0);
const round = (value: number, places = 3) => Number(value.toFixed(places));
/** Counts by key, most first. */
function tally(keys: Iterable<string>): Record<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}
/** Each of `counts` as a share of their sum. */
const shares = (counts: Record<string, number>) => {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return Object.fromEntries(Object.entries(counts).map(([key, n]) => [key, round(share(n, total))]));
};

/** The ratios conflict-graph.ts's extracted shape is drawn to match. */
function shapeOf(graphs: ShapeGraph[]) {
  const nodes: (ShapeNode & { key: string })[] = [];
  const edges: (ShapeEdge & { from: string; to: string })[] = [];
  graphs.forEach((graph, g) => {
    for (const node of graph.nodes) nodes.push({ ...node, key: `${g}:${node.id}` });
    for (const edge of graph.edges) edges.push({ type: edge.type, from: `${g}:${edge.from}`, to: `${g}:${edge.to}` });
  });
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const kindOf = (key: string) => byKey.get(key)?.labels[0] ?? '?';
  const ofKind = (kind: string) => nodes.filter((node) => node.labels[0] === kind);
  const ofType = (type: string) => edges.filter((edge) => edge.type === type);
  const outCount = (type: string) => tally(ofType(type).map((edge) => edge.from));
  const inCount = (type: string) => tally(ofType(type).map((edge) => edge.to));
  const claims = ofKind('Claim');
  const events = ofKind('Event');
  const actors = ofKind('Actor');
  const documents = ofKind('Document');
  const refersTo = ofType('REFERS_TO');
  const asserted = outCount('ASSERTS');
  const spoken = inCount('ASSERTS');
  const targets = outCount('TARGETS');
  const targetCounts = claims.map((claim) => targets[claim.key] ?? 0);
  const mentions = inCount('MENTIONED_IN');
  const speakers = actors.filter((actor) => asserted[actor.key]);
  const triples = tally(edges.map((edge) => `${edge.from} ${edge.type} ${edge.to}`));
  return {
    nodes: tally(nodes.map((node) => node.labels[0])),
    edges: tally(edges.map((edge) => edge.type)),
    refersToPerClaim: round(share(refersTo.length, claims.length)),
    refersToByEventType: shares(tally(refersTo.map((edge) => String(byKey.get(edge.to)?.properties?.event_type ?? kindOf(edge.to))))),
    refersToShareByClaimType: Object.fromEntries(Object.entries(tally(refersTo.map((edge) => String(byKey.get(edge.from)?.properties?.type))))
      .map(([type, n]) => [type, round(share(n, claims.filter((claim) => claim.properties?.type === type).length))])),
    claimsReferringToTwoOrMore: Object.values(outCount('REFERS_TO')).filter((n) => n >= 2).length,
    claimsReferring: Object.keys(outCount('REFERS_TO')).length,
    mentionedInPerDocument: round(share(ofType('MENTIONED_IN').length, documents.length), 1),
    mentionedPerDocumentMax: Math.max(0, ...documents.map((document) => mentions[document.key] ?? 0)),
    itemsPerDocument: round(share(claims.length + events.length, documents.length), 1),
    precedesPerEvent: round(share(ofType('PRECEDES').length, events.length)),
    claimsPerActor: round(share(ofType('ASSERTS').length, actors.length)),
    claimsPerSpeaker: round(share(ofType('ASSERTS').length, speakers.length)),
    actorsSpeaking: round(share(speakers.length, actors.length)),
    claimsWithNoSpeaker: round(share(claims.filter((claim) => !spoken[claim.key]).length, claims.length)),
    targetsPerClaim: round(share(ofType('TARGETS').length, claims.length)),
    claimsWithNoTarget: round(share(targetCounts.filter((n) => n === 0).length, claims.length)),
    claimsWithTwoTargetsOrMore: round(share(targetCounts.filter((n) => n >= 2).length, claims.length)),
    locationsPerDocument: round(share(ofKind('Location').length, documents.length), 2),
    occurredAtPerEvent: round(share(ofType('OCCURRED_AT').length, events.length)),
    duplicateEdges: Object.values(triples).reduce((sum, n) => sum + n - 1, 0),
    duplicateEdgesByType: tally(Object.entries(triples).filter(([, n]) => n > 1).map(([triple]) => triple.split(' ')[1])),
  };
}

const dir = await mkdtemp(path.join(tmpdir(), 'parley-extraction-shape-'));
try {
  const { pipeline } = await openExtractionPipeline({ symbolicWorkers: 2 });
  const store = await ParleyStore.open(dir);
  const graphs: ShapeGraph[] = [];
  for (const [i, folder] of folders.entries()) {
    const summary = await ingestFolder({ store, pipeline }, path.resolve(folder), { tenant: 'shape', graphId: `g${i}`, workers: 2 });
    console.error(`${folder}: ${summary.ingested} ingested, ${summary.failures.length} failed`);
    const index = await store.loadGraph('shape', `g${i}`);
    graphs.push({ nodes: [...index.nodes.values()], edges: [...index.edges.values()] });
  }
  await store.close();
  await pipeline.close();
  const generated = generate(generatedSize, { extracted: true }).write;
  console.log(JSON.stringify({ extraction: shapeOf(graphs), [`generated ${generatedSize}, extracted shape`]: shapeOf([{ nodes: generated.nodes.map((node) => ({ ...node, id: node.id! })), edges: generated.edges }]) }, null, 2));
} finally {
  await rm(dir, { recursive: true, force: true });
}
