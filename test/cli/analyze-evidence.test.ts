import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE_LINES, idsCited } from '../../packages/cli/src/evidence.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

/** `parley analyze` and `parley assess` against a listening server: the evidence as a person checks it, quotes with source and date, not bare ids. */

const BIN = fileURLToPath(new URL('../../packages/cli/bin/parley.mjs', import.meta.url));

function parley(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

// the stalemate conflict (test/fixtures/conflicts), each record read from a dispatch that quotes it
function quotedStalemate(): { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] } {
  const { nodes, edges } = JSON.parse(readFileSync(new URL('../fixtures/conflicts/stalemate.json', import.meta.url), 'utf8'));
  return {
    nodes: nodes.map((node: Record<string, unknown>) => ({ ...node, provenance: [{ source: 'valley-dispatch.txt', timestamp: '2024-05-02T00:00:00Z', quote: `Reported: ${node.label ?? node.text}.` }] })),
    edges: edges.map((edge: Record<string, unknown>) => ({ ...edge, provenance: [{ source: 'valley-dispatch.txt', timestamp: '2024-05-02T00:00:00Z', quote: `Reported: ${edge.from} ${edge.type} ${edge.to}.` }] })),
  };
}

describe('parley analyze and assess print the evidence', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let workspace: string;
  beforeAll(async () => {
    t = await makeTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const key = await t.keyFor('cli');
    const headers = { 'x-api-key': key };
    workspace = (await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers, payload: { name: 'valley', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'valley' } })).json().id;
    expect((await t.app.inject({ method: 'POST', url: '/v1/graphs/valley/import', headers, payload: quotedStalemate() })).statusCode).toBe(200);
    env = { PARLEY_URL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, PARLEY_API_KEY: key, PARLEY_DATA_DIR: path.join(t.dir, 'unused') };
  });
  afterAll(async () => t.close());

  it('analyze: the short answer, each id it cites with its quote, source and date, then the readings; --full the per-finding sentences', { timeout: 240_000 }, async () => {
    const analyzed = await parley(['analyze', workspace, 'What stage of escalation is this conflict in?'], env);
    expect(analyzed.code, analyzed.stderr).toBe(0);
    const [answer, ...rest] = analyzed.stdout.split('\n\n');
    expect(answer).toMatch(/^Glasl, escalation model \(\w+ reading, score [\d.]+\): stage [789] of 9/);
    const cited = idsCited(answer);
    expect(cited.length).toBeGreaterThan(0);
    const evidence = rest.find((block) => block.startsWith('Evidence:'))!;
    for (const id of cited) expect(evidence).toMatch(new RegExp(`^  \\[${id}\\] "Reported: [^"]+\\." \\(valley-dispatch\\.txt, 2024-05-02\\)$`, 'm'));
    expect(rest.find((block) => block.startsWith('Readings:'))).toMatch(/^ {2}Kriesberg, conflict life cycle/m);

    const full = await parley(['analyze', workspace, 'What stage of escalation is this conflict in?', '--full'], env);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toMatch(/^Glasl, escalation model: The conflict is at Glasl stage [789] of 9/m);
    // the ids the per-finding sentences cite, quoted, as many as EVIDENCE_LINES; the rest counted
    const fullEvidence = full.stdout.trimEnd().split('\n\n').find((block) => block.startsWith('Evidence:'))!.split('\n').slice(1);
    const cites = new Set(idsCited(full.stdout.split('\n\n')[0]));
    for (const line of fullEvidence.slice(0, EVIDENCE_LINES)) expect(line).toMatch(/^ {2}\[\w+\] "Reported: [^"]+\." \(valley-dispatch\.txt, 2024-05-02\)$/);
    expect(fullEvidence.slice(0, EVIDENCE_LINES).map((line) => line.match(/^ {2}\[(\w+)\]/)![1])).toEqual([...cites].slice(0, EVIDENCE_LINES));
    expect(fullEvidence.slice(EVIDENCE_LINES)).toEqual(cites.size > EVIDENCE_LINES ? [`  and ${cites.size - EVIDENCE_LINES} more (--json lists them all)`] : []);
  });

  it('assess: under each framework, the quotes its findings rest on', { timeout: 240_000 }, async () => {
    const assessed = await parley(['assess', workspace, '--frameworks', 'glasl,zartman'], env);
    expect(assessed.code, assessed.stderr).toBe(0);
    const lines = assessed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\d\.\d\d {2}applies {3}(Glasl|Zartman)/);
    expect(lines[1]).toMatch(/^ {6}\[\w+\] "Reported: [^"]+\." \(valley-dispatch\.txt, 2024-05-02\)$/);
  });
});
