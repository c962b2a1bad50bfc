import { actorDirectory, type ActorDirectory, type GrowingActorDirectory, type KnownActor } from './structure/index.ts';

/**
 * The graph's actor names and memberships as a batch's drafting workers see them: a log in shared
 * memory that the thread that commits appends each actor to as the batch's documents name it (new,
 * or with more names), and each MEMBER_OF pair, and from which each worker keeps an actor directory
 * and the pairs, so that a document is drafted against the documents before it rather than against none. A draft records what the
 * directory answered (draft.ts), and the commit asks the graph the same questions: a draft made
 * against a stale or partial log is only refused more often, never wrong. A name a later
 * document gives an actor it knows by another label, or a membership an earlier one stated, then no
 * longer sends that document back to be structured again on the thread that commits (62 of 512
 * documents of the sample corpus copied 16 times over were, and 47 still, all for a membership,
 * with the names alone in the log; each also cut the batch's commit in two).
 *
 * Layout: an Int32 at 0, the bytes of entries written so far; from HEADER_BYTES on, one entry as
 * JSON per line: a KnownActor, or a [member, organisation] pair of actor ids. The writer appends the bytes and then publishes the length (Atomics), so a
 * reader never sees half an entry. An actor that loses a name, or changes label or type, cannot be
 * taken back from a directory that only grows: the writer starts a new log (a new generation) with
 * every actor and membership as they are now, and each worker builds its directory again.
 *
 * A draft records how far into the log it read (KnownNamesPosition). The thread that commits knows
 * where the log ends while its own directory answers as the log's entries do (commit.ts); a draft
 * made there is answered as the commit's directory would answer it, so its names are not asked
 * again (the text is not read for known names a second time): 980 of 1,024 drafts of the sample
 * corpus copied 16 times over, two runs.
 */

/** Bytes a log holds at most (its entries): about 200,000 actors' names. Past it the log takes no more, and the drafts see what it holds. */
export const MAX_KNOWN_NAMES_BYTES = 16 * 1024 * 1024;
/** A new log's room, doubled (up to MAX_KNOWN_NAMES_BYTES) into a new generation when full. */
const FIRST_LOG_BYTES = 64 * 1024;
const HEADER_BYTES = 8;

/** What a draft task carries of the log: no copy, the memory is shared. */
export interface KnownNamesRef {
  generation: number;
  buffer: SharedArrayBuffer;
}

/**
 * How far into a log a reader read: its generation and the bytes of entries. A draft records it, and a
 * directory that answers as the entries up to it does answers as the draft's did (resolveDraft).
 */
export interface KnownNamesPosition {
  generation: number;
  bytes: number;
}

export function samePosition(a: KnownNamesPosition | undefined, b: KnownNamesPosition): boolean {
  return a !== undefined && a.generation === b.generation && a.bytes === b.bytes;
}

/** Generations of this process's logs: a worker tells apart the logs of batches that share it. */
let generations = 0;

/** The writing end, on the thread that commits. */
export class KnownNamesLog {
  private ref: KnownNamesRef;
  private used = 0;
  /** An add went past the bound: the log takes no more until it starts again (reset). */
  private full = false;

  constructor(
    entries: Iterable<KnownEntry> = [],
    private readonly maxBytes = MAX_KNOWN_NAMES_BYTES,
  ) {
    this.ref = newRef(Math.min(FIRST_LOG_BYTES, maxBytes));
    this.add(entries);
  }

  /** The log as it is now, for a draft task. */
  get shared(): KnownNamesRef {
    return this.ref;
  }

  /** Where the log ends now. */
  get position(): KnownNamesPosition {
    return { generation: this.ref.generation, bytes: this.used };
  }

  /**
   * Appends actors (new ones, or ones with more names) and memberships; past the bound, these and all
   * later ones are left out. False when they were left out.
   */
  add(entries: Iterable<KnownEntry>): boolean {
    if (this.full) return false;
    let lines = '';
    for (const entry of entries) lines += `${JSON.stringify(entry)}\n`;
    if (lines === '') return true;
    const bytes = Buffer.byteLength(lines);
    if (HEADER_BYTES + this.used + bytes > this.ref.buffer.byteLength) {
      const wanted = HEADER_BYTES + this.used + bytes;
      if (wanted > HEADER_BYTES + this.maxBytes) {
        this.full = true;
        return false;
      }
      // a larger log under a new generation, with what the old one held: the workers read it from the start
      const old = this.ref;
      let room = old.buffer.byteLength - HEADER_BYTES;
      while (HEADER_BYTES + room < wanted) room *= 2;
      this.ref = newRef(Math.min(room, this.maxBytes));
      new Uint8Array(this.ref.buffer).set(new Uint8Array(old.buffer, HEADER_BYTES, this.used), HEADER_BYTES);
    }
    Buffer.from(this.ref.buffer).write(lines, HEADER_BYTES + this.used, 'utf8');
    this.used += bytes;
    Atomics.store(new Int32Array(this.ref.buffer, 0, 1), 0, this.used);
    return true;
  }

  /**
   * Starts again with `entries`, as the graph holds them now (an actor lost a name or changed label or type, or the
   * commit's directory is not known to answer as the log does: a batch's first commit, a change the log did not see);
   * false when they did not all fit.
   */
  reset(entries: Iterable<KnownEntry>): boolean {
    this.ref = newRef(this.ref.buffer.byteLength - HEADER_BYTES);
    this.used = 0;
    this.full = false;
    return this.add(entries);
  }
}

/** What a log holds: an actor's names, or that one actor (by id) is a member of another. */
export type KnownEntry = KnownActor | [member: string, organisation: string];

function newRef(bytes: number): KnownNamesRef {
  return { generation: ++generations, buffer: new SharedArrayBuffer(HEADER_BYTES + bytes) };
}

/** What a worker reads of a log: the directory of its actors and its memberships, as of `position`. */
export interface KnownNames {
  directory: ActorDirectory;
  isMemberOf(member: string, organisation: string): boolean;
  position: KnownNamesPosition;
}

/** The reading end, in a worker: what the last log it read holds, brought up to date at each task. */
let kept: { generation: number; read: number; directory: GrowingActorDirectory; memberships: Set<string> } | undefined;

/** Everything the log holds now (kept from the worker's last task on the same log). */
export function readKnownNames(ref: KnownNamesRef): KnownNames {
  if (kept?.generation !== ref.generation) kept = { generation: ref.generation, read: 0, directory: actorDirectory([]), memberships: new Set() };
  const state = kept;
  const written = Atomics.load(new Int32Array(ref.buffer, 0, 1), 0);
  if (written > state.read) {
    const lines = Buffer.from(ref.buffer, HEADER_BYTES + state.read, written - state.read).toString('utf8').split('\n');
    lines.pop();
    for (const line of lines) {
      const entry = JSON.parse(line) as KnownEntry;
      if (Array.isArray(entry)) state.memberships.add(membershipKey(entry[0], entry[1]));
      else state.directory.add(entry);
    }
    state.read = written;
  }
  return {
    directory: state.directory,
    isMemberOf: (member, organisation) => state.memberships.has(membershipKey(member, organisation)),
    position: { generation: state.generation, bytes: state.read },
  };
}

/** One membership as a set of them holds it. */
export function membershipKey(member: string, organisation: string): string {
  return `${member}\u0000${organisation}`;
}
