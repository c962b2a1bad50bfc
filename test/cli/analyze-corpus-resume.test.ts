import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportWithoutInstants } from '../helpers/graph-export.ts';
import { ParleyStore } from '../../engine/store/store.ts';

/**
 * `parley analyze-corpus` as a real child process over the sample corpus, stopped part
 * way (SIGINT, and separately SIGKILL) and run again: the resumed graph must equal the
 * graph of an uninterrupted run, record for record.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'packages/cli/bin/parley.mjs');
const CORPUS = path.join(ROOT, 'corpora/sudan-drc-2024');
const TOTAL = 32;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `stopAt` sends `signal` once that many documents have been reported. */
function runCli(dataDir: string, stop?: { after: number; signal: NodeJS.Signals }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'analyze-corpus', CORPUS, '--graph', 'resume', '--no-report', '--progress', 'lines', '--workers', '2'], {
      cwd: ROOT,
      env: { ...process.env, PARLEY_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stop && !sent && new RegExp(`^\\[${stop.after}/${TOTAL}\\]`, 'm').test(stdout)) {
        sent = true;
        child.kill(stop.signal);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The graph as exported, without the instants of this run. */
async function exportedGraph(dataDir: string): Promise<string[]> {
  const store = await ParleyStore.open(path.join(dataDir, 'store'));
  try {
    return exportWithoutInstants(await store.loadGraph('default', 'resume'));
  } finally {
    await store.close();
  }
}

const summaryOf = (stdout: string) => {
  const match = /(\d+) documents: (\d+) ingested, (\d+) skipped \(already in the graph\), (\d+) failed/.exec(stdout);
  if (!match) throw new Error(`no summary in:\n${stdout}`);
  return { total: Number(match[1]), ingested: Number(match[2]), skipped: Number(match[3]), failed: Number(match[4]) };
};

describe('analyze-corpus: interrupted and resumed', { timeout: 600_000 }, () => {
  const dirs: string[] = [];
  let reference: string[];
  const newDataDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parley-resume-'));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    const dataDir = await newDataDir();
    const run = await runCli(dataDir);
    expect(run.code, run.stderr).toBe(0);
    expect(summaryOf(run.stdout)).toEqual({ total: TOTAL, ingested: TOTAL, skipped: 0, failed: 0 });
    reference = await exportedGraph(dataDir);
    expect(reference.filter((line) => line.includes('"kind":"Document"'))).toHaveLength(TOTAL);
  }, 600_000);

  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('after SIGINT it stops between commits, says so, and the next run finishes the rest', async () => {
    const dataDir = await newDataDir();
    const first = await runCli(dataDir, { after: 4, signal: 'SIGINT' });
    expect(first.code, first.stderr).toBe(130);
    expect(first.stdout).toContain('interrupted');
    const stopped = summaryOf(first.stdout);
    expect(stopped.ingested).toBeGreaterThanOrEqual(4);
    expect(stopped.ingested).toBeLessThan(TOTAL);

    const second = await runCli(dataDir);
    expect(second.code, second.stderr).toBe(0);
    expect(summaryOf(second.stdout)).toEqual({ total: TOTAL, ingested: TOTAL - stopped.ingested, skipped: stopped.ingested, failed: 0 });
    expect(await exportedGraph(dataDir)).toEqual(reference);
  });

  it('after SIGKILL (no chance to clean up) the next run skips what was committed and ends with the same graph', async () => {
    const dataDir = await newDataDir();
    const first = await runCli(dataDir, { after: 6, signal: 'SIGKILL' });
    expect(first.signal).toBe('SIGKILL');
    const committedBefore = (first.stdout.match(/^\[\d+\/\d+\] ingested /gm) ?? []).length;
    expect(committedBefore).toBeGreaterThanOrEqual(6);
    expect(committedBefore).toBeLessThan(TOTAL);

    const second = await runCli(dataDir);
    expect(second.code, second.stderr).toBe(0);
    const resumed = summaryOf(second.stdout);
    // the kill may land after a commit whose line was not yet printed: at least the reported ones are skipped
    expect(resumed.skipped).toBeGreaterThanOrEqual(committedBefore);
    expect(resumed.ingested + resumed.skipped).toBe(TOTAL);
    expect(resumed.ingested).toBeGreaterThan(0);
    expect(await exportedGraph(dataDir)).toEqual(reference);
  });
});
