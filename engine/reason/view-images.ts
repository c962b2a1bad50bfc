/**
 * View images on disk: a graph's whole Prolog view as a reasoning worker's engine holds it (engine/prolog/bridge.ts
 * viewImage), kept beside the graph's snapshot, so that after a restart the workers hand an untouched graph's view
 * over from it (handOverImage: at 100k facts some 0.2 s of a core against 0.6-0.8 s from the records; at 1M 4.5 s
 * against 8.2 s) rather than from the records.
 *
 * One file per graph (snapshot.ts graphFile), whose header names the tenant, graph, generation and revision it is
 * of: it is read only for that graph at that generation and revision, so a write or a correction (a new revision),
 * or the graph deleted and made again (a new generation), leaves it unread, and no other tenant's graph ever reads
 * it; the image's own header refuses it when torn, corrupt, or made under other rules or another engine. Written
 * whole or not at all (replaceFile: a crash leaves the old file or a temporary one, which the store's start removes).
 *
 * The main thread keeps the ledger (ViewImages): which graphs have one and their bytes, within a bound (the oldest
 * removed past it); which worker makes the next; and it removes a graph's image when the graph is written, corrected
 * or deleted. One worker makes each graph version's image: the first to say its engine holds the whole view at the
 * current version (replicas.ts 'prepared'), once it has had no task for a while (worker-entry.ts): making one is a
 * synchronous call of two to three times a whole hand-over's CPU (2 s at 100k facts, 23 s at 1M), which holds that
 * worker's tasks meanwhile, and grows its engine's memory once by some 200 bytes a fact.
 */
import { readFileSync } from 'node:fs';
import { mkdir, open as openFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile } from '../files.ts';
import { graphKey, splitGraphKey } from '../store/graph-cache.ts';
import { graphFile } from '../store/snapshot.ts';

/** The bytes the images may take together, by default (PARLEY_VIEW_IMAGE_BYTES; 0: none made or read). */
export const DEFAULT_VIEW_IMAGE_BYTES = 1024 * 2 ** 20;
/**
 * Image bytes per fact taken ahead, to leave out a graph whose image could not fit the bound without making it:
 * generated conflict graphs take about 41 (bench/handover.ts).
 */
const IMAGE_BYTES_PER_FACT = 48;
const FORMAT = 1;

/** The graph version an image is of. */
export interface ImageOf {
  tenant: string;
  graphId: string;
  generation: string;
  revision: number;
}

/** Writes `image` (viewImage's) as the image of `of`, whole or not at all. */
export async function writeViewImage(file: string, of: ImageOf, image: Uint8Array): Promise<void> {
  const header = JSON.stringify({ format: FORMAT, tenant: of.tenant, graphId: of.graphId, generation: of.generation, revision: of.revision });
  await mkdir(path.dirname(file), { recursive: true }); // (the store makes its snapshot folder at its first close)
  await replaceFile(file, Buffer.concat([Buffer.from(header + '\n'), image]), { durable: true });
}

/**
 * The image in `file` (as viewImage made it: handOverImage checks the rest) when its header names `of`; undefined
 * when absent, unreadable, or of another graph or version. Read at once: a worker reads it as it starts a hand-over.
 */
export function readViewImage(file: string, of: ImageOf): Uint8Array | undefined {
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return undefined;
  }
  const newline = content.indexOf(10);
  const header = headerOf(content, newline);
  const same = header?.tenant === of.tenant && header.graphId === of.graphId && header.generation === of.generation && header.revision === of.revision;
  return same ? content.subarray(newline + 1) : undefined;
}

/** The header of an image file of this format, the first `newline` bytes of `content`; undefined when it is none. */
function headerOf(content: Buffer, newline: number): ImageOf | undefined {
  if (newline < 0) return undefined;
  try {
    const header = JSON.parse(content.subarray(0, newline).toString()) as Partial<ImageOf> & { format?: number };
    return header.format === FORMAT ? (header as ImageOf) : undefined;
  } catch {
    return undefined;
  }
}

/** Header bytes read to list an image (its ids, at most 128 characters each, URI-encoded at worst 3 bytes a character). */
const HEADER_BYTES_READ = 2_048;

/** The header of the image in `file` and the file's size and time, read without reading the image. */
async function listed(file: string): Promise<{ of: ImageOf; bytes: number; written: number } | undefined> {
  const handle = await openFile(file).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { size, mtimeMs } = await handle.stat();
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEADER_BYTES_READ), 0, HEADER_BYTES_READ, 0);
    const head = buffer.subarray(0, bytesRead);
    const of = headerOf(head, head.indexOf(10));
    return of && { of, bytes: size, written: mtimeMs };
  } finally {
    await handle.close();
  }
}

/** The ledger of the images in a store's snapshot folder (the main thread's). */
export class ViewImages {
  /** Per graph (its file's name), the version its image on disk is of and its bytes, least recently written first. */
  private readonly onDisk = new Map<string, { generation: string; revision: number; bytes: number }>();
  /** Per graph (its file's name), the version whose image a worker was asked to make and has not said it made. */
  private readonly making = new Map<string, { generation: string; revision: number }>();

  private constructor(
    private readonly dir: string,
    /** The bytes the images may take together. */
    private readonly maxBytes: number,
    /** Largest graph (facts) an image is made of: the workers read one only for a hand-over ahead of a call (ReasoningOptions.preloadMaxFacts). */
    private readonly maxFacts: number,
  ) {}

  /**
   * The ledger of the images in `dir`: those found there, the most recently written kept within `maxBytes`, the
   * others removed, as is one beside no snapshot (its graph deleted while no server ran), with no header of this
   * format, or whose header names another graph than its file's name.
   */
  static async open(dir: string, maxBytes: number, maxFacts: number): Promise<ViewImages> {
    const images = new ViewImages(dir, maxBytes, maxFacts);
    const names = await readdir(dir).catch(() => [] as string[]);
    const snapshots = new Set(names.filter((name) => name.endsWith('.snapshot')));
    const found = await Promise.all(
      names
        .filter((name) => name.endsWith('.view'))
        .map(async (name) => ({ name, image: snapshots.has(name.replace(/\.view$/, '.snapshot')) ? await listed(path.join(dir, name)) : undefined })),
    );
    for (const { name, image } of found.sort((a, b) => (a.image?.written ?? 0) - (b.image?.written ?? 0))) {
      if (image && path.basename(images.fileOf(graphKey(image.of.tenant, image.of.graphId))) === name) images.onDisk.set(name, { generation: image.of.generation, revision: image.of.revision, bytes: image.bytes });
      else await rm(path.join(dir, name), { force: true });
    }
    await images.keepWithinBound();
    return images;
  }

  /** Where the image of the graph under `key` (graph-cache.ts graphKey) is kept. */
  fileOf(key: string): string {
    const { tenant, graphId } = splitGraphKey(key);
    return graphFile(this.dir, tenant, graphId, 'view');
  }

  /** Whether the graph under `key` has an image on disk of generation `generation` at `revision`. */
  has(key: string, generation: string, revision: number): boolean {
    const image = this.onDisk.get(this.nameOf(key));
    return image?.generation === generation && image.revision === revision;
  }

  /**
   * Whether a worker whose engine holds the whole view of the graph under `key`, of `facts` facts, at `generation`
   * and `revision` (the graph's now) is to make its image: none is on disk or being made of that version, and one
   * would fit the bounds. Noted as being made when so.
   */
  toMake(key: string, generation: string, revision: number, facts: number): boolean {
    const name = this.nameOf(key);
    const making = this.making.get(name);
    if (this.has(key, generation, revision) || (making?.generation === generation && making.revision === revision)) return false;
    if (facts > this.maxFacts || facts * IMAGE_BYTES_PER_FACT > this.maxBytes) return false;
    this.making.set(name, { generation, revision });
    return true;
  }

  /**
   * A worker made the image of the graph under `key` at `generation` and `revision` (of `bytes` bytes; 0: it could
   * not, its engine no longer holding that whole view); `current`: the graph is still at that version (else the
   * image is removed, as a write meanwhile would have removed it). The oldest images are removed past the bound.
   */
  async made(key: string, generation: string, revision: number, bytes: number, current: boolean): Promise<void> {
    const name = this.nameOf(key);
    const making = this.making.get(name);
    if (making?.generation === generation && making.revision === revision) this.making.delete(name);
    if (bytes === 0) return;
    this.onDisk.delete(name);
    this.onDisk.set(name, { generation, revision, bytes });
    if (!current) return this.remove(key);
    await this.keepWithinBound();
  }

  /** Removes the graph's image: the graph was written, corrected or deleted. */
  async remove(key: string): Promise<void> {
    const name = this.nameOf(key);
    this.making.delete(name);
    if (!this.onDisk.delete(name)) return;
    await rm(path.join(this.dir, name), { force: true });
  }

  /** The bytes of the images on disk together. */
  bytes(): number {
    let total = 0;
    for (const { bytes } of this.onDisk.values()) total += bytes;
    return total;
  }

  private nameOf(key: string): string {
    return path.basename(this.fileOf(key));
  }

  private async keepWithinBound(): Promise<void> {
    let total = this.bytes();
    for (const [name, { bytes }] of this.onDisk) {
      if (total <= this.maxBytes) return;
      this.onDisk.delete(name);
      total -= bytes;
      await rm(path.join(this.dir, name), { force: true });
    }
  }
}
