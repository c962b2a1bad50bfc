import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';
import type { StructuredEdge, StructuredNode } from '../../engine/extract/structure/index.ts';
import { ingest, type IngestContext } from '../../engine/ingest/ingest.ts';
import { ParleyStore } from '../../engine/store/store.ts';

/** The sample corpus of issue 25's relation errors: the Sudan and DRC documents and the Goma report. */
const CORPORA = path.resolve(import.meta.dirname, '../../corpora');

let base: string;
let context: IngestContext;
const nodes = new Map<string, StructuredNode>();
const edges: (StructuredEdge & { source: string })[] = [];

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'parley-relations-corpus-'));
  context = { store: await ParleyStore.open(path.join(base, 'store')), pipeline: createExtractionPipeline(), corporaDir: CORPORA };
  const documents = (await readdir(path.join(CORPORA, 'sudan-drc-2024'))).filter((file) => /\.(?:txt|md|html)$/.test(file) && file !== 'README.md').sort();
  for (const source of [...documents.map((file) => `sudan-drc-2024/${file}`), 'drc-goma-m23.html']) {
    const { graph } = (await ingest(context, 'acme', 'sample', { source })).extraction;
    for (const node of graph.nodes) nodes.set(node.id, node);
    for (const edge of graph.edges) edges.push({ ...edge, source });
  }
}, 600_000);

afterAll(async () => {
  await context.pipeline.close();
  await context.store.close();
  await rm(base, { recursive: true, force: true });
});

const label = (id: string) => String(nodes.get(id)?.properties.label ?? id);
const between = (type: string, a: string, b: string) =>
  edges.filter((edge) => edge.type === type && ((label(edge.from) === a && label(edge.to) === b) || (label(edge.from) === b && label(edge.to) === a)));

describe('relations and red lines on the sample corpus', () => {
  it("reads Rwanda's army and the M23 as allies, never as fighting each other", () => {
    expect(between('ALLIED_WITH', 'Rwanda Defence Force', 'M23').map((edge) => edge.source)).toContain('sudan-drc-2024/drc-10-experts-report.txt');
    expect(between('OPPOSES', 'Rwanda Defence Force', 'M23')).toEqual([]);
    expect(between('OPPOSES', 'Rwanda', 'M23')).toEqual([]);
  });

  it('reads militias fighting beside the army as its allies', () => {
    expect(between('OPPOSES', 'Wazalendo', 'Armed Forces of the Democratic Republic of the Congo')).toEqual([]);
    expect(between('ALLIED_WITH', 'Wazalendo', 'Armed Forces of the Democratic Republic of the Congo')).not.toEqual([]);
  });

  it('never sets a leader against his own army, nor a party against its own organisation', () => {
    expect(between('MEMBER_OF', 'Abdel Fattah al-Burhan', 'Sudanese Armed Forces')).not.toEqual([]);
    expect(between('OPPOSES', 'Abdel Fattah al-Burhan', 'Sudanese Armed Forces')).toEqual([]);
    const memberships = edges.filter((edge) => edge.type === 'MEMBER_OF');
    const againstOwn = edges.filter((edge) => edge.type === 'OPPOSES' && memberships.some((m) => (m.from === edge.from && m.to === edge.to) || (m.from === edge.to && m.to === edge.from)));
    expect(againstOwn).toEqual([]);
  });

  it('attributes no red line to an organisation that only reported it', () => {
    const redLines = [...nodes.values()].filter((node) => node.labels[0] === 'Claim' && node.properties.type === 'RedLine');
    expect(redLines.length).toBeGreaterThan(5);
    const speakers = redLines.map((claim) => nodes.get(String(claim.properties.speaker))?.properties);
    expect(speakers.filter((speaker) => ['international_org', 'media', 'ngo'].includes(String(speaker?.actor_type))).map((speaker) => speaker?.label)).toEqual([]);
    // "The army's envoy to the UN said the government would not accept a ceasefire ..."
    const envoy = redLines.find((claim) => String(claim.properties.text).startsWith('the government would not accept a ceasefire'));
    expect(label(String(envoy?.properties.speaker))).toBe('Sudanese Armed Forces');
    // "... addressed the UN General Assembly in New York, where he said the army would never accept a settlement ..."
    const assembly = redLines.find((claim) => String(claim.properties.text).startsWith('the army would never accept a settlement'));
    expect(label(String(assembly?.properties.speaker))).toBe('Abdel Fattah al-Burhan');
  });
});
