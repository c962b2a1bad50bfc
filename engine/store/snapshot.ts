/**
 * A graph's in-memory records as one file, so that a restart reads one file instead of
 * iterating every record key in LevelDB. LevelDB stays the source of truth: a snapshot
 * is used only when its header names the graph's current generation and revision, its
 * length and SHA-256 match, and it parses; anything else (absent, stale, torn by a crash,
 * corrupt) means the graph is rebuilt from its records. Written to a temporary file,
 * synced, then renamed over the old one, so a reader sees a whole old or a whole new file.
 *
 * Layout: one header line of JSON, then the body, JSON of { nodes, edges } as stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import { GraphIndex } from './graph-index.ts';

const FORMAT = 1;

interface SnapshotHeader {
  format: number;
  generation: string;
  revision: number;
  bytes: number;
  sha256: string;
}

/** Where a graph's snapshot lives under `dir`. */
export function snapshotFile(dir: string, tenant: string, graphId: string): string {
  return path.join(dir, `${encodeURIComponent(tenant)}~${encodeURIComponent(graphId)}.snapshot`);
}

export async function writeSnapshot(file: string, generation: string, revision: number, graph: GraphIndex): Promise<void> {
  const body = Buffer.from(JSON.stringify({ nodes: [...graph.nodes.values()], edges: [...graph.edges.values()] }));
  const header: SnapshotHeader = { format: FORMAT, generation, revision, bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') };
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), body]));
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
}

/** The graph the snapshot holds, when it is whole and of this generation and revision; else undefined. */
export async function readSnapshot(file: string, generation: string, revision: number): Promise<GraphIndex | undefined> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch {
    return undefined;
  }
  const newline = content.indexOf(10);
  if (newline < 0) return undefined;
  try {
    const header = JSON.parse(content.subarray(0, newline).toString()) as SnapshotHeader;
    const body = content.subarray(newline + 1);
    if (header.format !== FORMAT || header.generation !== generation || header.revision !== revision || header.bytes !== body.length) return undefined;
    if (createHash('sha256').update(body).digest('hex') !== header.sha256) return undefined;
    const { nodes, edges } = JSON.parse(body.toString()) as { nodes: NodeRecord[]; edges: EdgeRecord[] };
    return GraphIndex.fromRecords(nodes, edges);
  } catch {
    return undefined;
  }
}

export async function removeSnapshot(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** Removes the temporary files of snapshot writes a crash cut short. */
export async function removeUnfinishedSnapshots(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.endsWith('.tmp')) await rm(path.join(dir, name), { force: true });
}
