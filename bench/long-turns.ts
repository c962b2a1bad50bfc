/**
 * What ran in the event loop's long turns: the turns bench/loop-watch.ts noted in a
 * benchmarked server, each explained by the samples of the server's V8 CPU profile
 * (--cpu-prof) taken within it. For each: when (ms into the profile), how long, the CPU the
 * process used meanwhile, and where the time went: the project frames (outside
 * node_modules and node:) nearest the top of the stack, which name the step, and the
 * functions with the most self time.
 *
 *   npx tsx bench/long-turns.ts WATCH.json PROFILE.cpuprofile [--top 4]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface LongTurn {
  startMs: number;
  ms: number;
  cpuMs: number;
  /** time per innermost project frame, most first */
  steps: [string, number][];
  /** self time per function, most first */
  self: [string, number][];
}

interface Watched {
  startUs: number;
  endUs: number;
  cpuMs: number;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}` : ''}`;
}

const isProject = (url: string) => url.startsWith('file://') && !url.includes('/node_modules/');

/** A profile's nodes by id, and each one's parent: a sample's stack is its node and the parents up from it. */
export function profileTree(profile: Pick<Profile, 'nodes'>): { byId: Map<number, ProfileNode>; parent: Map<number, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return { byId, parent };
}

/** The `watched` turns explained by the samples of `profile` within each. */
export function explainTurns(profile: Profile, watched: Watched[]): LongTurn[] {
  const { byId, parent } = profileTree(profile);
  const stepOf = new Map<number, string>();
  const step = (id: number): string => {
    let found = stepOf.get(id);
    if (found !== undefined) return found;
    found = '(native or node:)';
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at)!;
      if (isProject(node.callFrame.url)) {
        found = frameName(node);
        break;
      }
    }
    stepOf.set(id, found);
    return found;
  };
  // sample i ran from times[i] to times[i + 1]
  const times: number[] = [];
  let time = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((time += delta));
  const most = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return watched.map(({ startUs, endUs, cpuMs }) => {
    const self = new Map<string, number>();
    const steps = new Map<string, number>();
    for (let i = 0; i < profile.samples.length - 1; i++) {
      const overlap = Math.min(endUs, times[i + 1]) - Math.max(startUs, times[i]);
      if (overlap <= 0) continue;
      const id = profile.samples[i];
      const name = frameName(byId.get(id)!);
      self.set(name, (self.get(name) ?? 0) + overlap / 1000);
      steps.set(step(id), (steps.get(step(id)) ?? 0) + overlap / 1000);
    }
    return { startMs: (startUs - profile.startTime) / 1000, ms: (endUs - startUs) / 1000, cpuMs, steps: most(steps), self: most(self) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '4' } } });
  const [watchFile, profileFile] = positionals;
  const watch = JSON.parse(await readFile(watchFile, 'utf8'));
  const turns = explainTurns(JSON.parse(await readFile(profileFile, 'utf8')), watch.turns);
  const list = (entries: [string, number][]) => entries.slice(0, Number(values.top)).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join('; ');
  console.log(`loop delay p99 ${watch.delayP99Ms.toFixed(1)} ms, max ${watch.delayMaxMs.toFixed(1)} ms; ${turns.length} long turns`);
  for (const turn of turns) console.log(`  at ${turn.startMs.toFixed(0)} ms, ${turn.ms.toFixed(0)} ms (CPU ${turn.cpuMs.toFixed(0)}) — steps: ${list(turn.steps)} — self: ${list(turn.self)}`);
}
