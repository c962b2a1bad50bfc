/**
 * bench:probe — the server probed as an attacker and a careless client would (issue 12's
 * standard), each part against the server as `npm start` runs it (child process,
 * 127.0.0.1, its own data dir), printing what it counted:
 *   - tenants: tenant B's key tries tenant A's graphs, workspaces, imports, keys and
 *     queries by every door (ids as given, encoded, with separators); a leak is an answer
 *     holding A's marker text, or A's graph changed afterwards;
 *   - path traversal: ingest sources that try to leave the corpora root (relative, absolute,
 *     encoded, file: URLs, NUL, backslashes); an escape is a 2xx, or the marker of a file
 *     outside the root in any answer;
 *   - SIGKILL: the server killed during a large import or an ingest, at a random moment or
 *     as soon as the write committed (its graph listed), and restarted on the same data dir;
 *     counts graphs left partial (not all of an import's records, an ingest's findings
 *     without its Document), edges whose endpoints are missing, and commits lost;
 *   - load: --clients concurrent clients (200) sending point queries for --seconds (5):
 *     requests/s, p50/p99, errors;
 *   - rate limits, on a server with the default limits: a key's 601st request in a minute,
 *     a wrong key's 101st from one address, an admin beside a limited tenant key.
 *
 *   npm run bench:probe [-- --kills 10 --clients 200 --seconds 5]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServer, stopServer, type ServerProcess } from './http.ts';

const { values: args } = parseArgs({
  options: { kills: { type: 'string', default: '10' }, clients: { type: 'string', default: '200' }, seconds: { type: 'string', default: '5' } },
});
const KILLS = Number(args.kills);
const CLIENTS = Number(args.clients);
const SECONDS = Number(args.seconds);
const ADMIN = 'pk_bench_probe_admin_key_0123456789abcdef';
const MARKER_A = 'SECRET-OF-TENANT-A-7f3e';
const MARKER_OUTSIDE = 'OUTSIDE-THE-CORPORA-ROOT-91c2';

function startProbeServer(dataDir: string, corporaDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServer({ PARLEY_DATA_DIR: dataDir, PARLEY_CORPORA_DIR: corporaDir, PARLEY_ADMIN_KEY: ADMIN, PARLEY_NER_MODEL_DIR: 'none', ...env });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
/** One request; the path is sent as written (no normalisation), so encoded and dotted paths reach the server as they are. */
function send(port: number, method: string, url: string, key?: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { ...(key ? { 'x-api-key': key } : {}), ...(payload !== undefined ? { 'content-type': contentType, 'content-length': String(Buffer.byteLength(payload)) } : {}) };
    const req = http.request({ host: '127.0.0.1', port, method, path: url, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const root = await mkdtemp(path.join(tmpdir(), 'parley-probe-'));
const corpora = path.join(root, 'corpora');
await mkdir(corpora, { recursive: true });
await writeFile(path.join(root, 'outside.txt'), `${MARKER_OUTSIDE}: the Northern Front attacked the port.`);
await writeFile(path.join(corpora, 'inside.txt'), 'The Northern Front attacked the port of Sawakin on 3 May 2024.');
console.log(`bench:probe — load average ${loadavg()[0].toFixed(1)}`);
console.log('| probe | attempts | result |');
console.log('|---|---|---|');

try {
  // ---- tenants, traversal and load: one server, rate limits off --------------------------
  const data = path.join(root, 'data');
  let server = await startProbeServer(data, corpora, { PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_AUTH_FAILURES_PER_MINUTE: '0' });
  const keyOf = async (tenant: string) => JSON.parse((await send(server.port, 'POST', '/v1/keys', ADMIN, { tenant, scope: 'write' })).body) as { api_key: string; key_id: string };
  const a = await keyOf('tenant-a');
  const b = await keyOf('tenant-b');
  const secretGraph = { nodes: [{ kind: 'Actor', id: 'a1', label: MARKER_A, role: 'party' }, { kind: 'Claim', id: 'c1', type: 'RedLine', text: `${MARKER_A} never` }], edges: [{ type: 'ASSERTS', from: 'a1', to: 'c1' }] };
  const idem = await new Promise<number>((resolve) => {
    const payload = JSON.stringify(secretGraph);
    const req = http.request(
      { host: '127.0.0.1', port: server.port, method: 'POST', path: '/v1/graphs/g-a/import', agent, headers: { 'x-api-key': a.api_key, 'content-type': 'application/json', 'content-length': String(payload.length), 'idempotency-key': 'a-import-1' } },
      (res) => res.resume().on('end', () => resolve(res.statusCode!)),
    );
    req.end(payload);
  });
  if (idem !== 200) throw new Error(`tenant A's import (with an Idempotency-Key) answered ${idem}`);
  const workspaceA = JSON.parse((await send(server.port, 'POST', '/v1/workspaces', a.api_key, { name: MARKER_A, domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'g-a' })).body) as { id: string };
  const countsBefore = (await send(server.port, 'GET', '/v1/graphs/g-a', a.api_key)).body;

  const graphIds = ['g-a', 'G-A', 'g-a.', 'g-a%00', 'tenant-a%00g-a', 'tenant-a%2Fg-a', '..%2Ftenant-a%2Fg-a', '%2e%2e%2fg-a', 'g%2Da', '.%2Fg-a'];
  const attempts: [string, string, unknown?][] = [];
  for (const id of graphIds) {
    attempts.push(['GET', `/v1/graphs/${id}`], ['GET', `/v1/graphs/${id}/export`], ['GET', `/v1/graphs/${id}/imports/a-import-1`], ['DELETE', `/v1/graphs/${id}`]);
    attempts.push(['POST', `/v1/graphs/${id}/query`, { match: '(n)', return: 'n' }]);
    attempts.push(['POST', '/v1/graph/query', { graph_id: decodeURIComponent(id.replace(/%00/g, '')), query: 'MATCH (n) RETURN n' }]);
    attempts.push(['POST', '/v1/graph/query', { graph_id: decodeURIComponent(id.replace(/%00/g, '')), query: 'MATCH (n) RETURN count(n)' }]);
    attempts.push(['POST', `/v1/graphs/${id}/ingest`, { source: 'x', text: 'The Northern Front attacked the port.' }]);
    attempts.push(['POST', `/v1/graphs/${id}/import`, { nodes: [{ kind: 'Actor', id: 'a1', label: 'overwritten by B' }] }]);
  }
  for (const id of [workspaceA.id, workspaceA.id.toUpperCase(), encodeURIComponent(`../${workspaceA.id}`), `${workspaceA.id}%00`]) {
    attempts.push(['GET', `/v1/workspaces/${id}`], ['DELETE', `/v1/workspaces/${id}`]);
    attempts.push(['POST', `/v1/workspaces/${id}/assess`, {}], ['POST', `/v1/workspaces/${id}/analyze`, { query: 'who opposes whom?' }]);
    attempts.push(['POST', `/v1/workspaces/${id}/extract`, { text: 'The Northern Front attacked the port.', commit: true }]);
  }
  attempts.push(['GET', '/v1/graphs'], ['GET', '/v1/workspaces'], ['GET', '/v1/keys'], ['DELETE', `/v1/keys/${a.key_id}`], ['POST', '/v1/keys', { tenant: 'tenant-a', scope: 'write' }]);
  attempts.push(['POST', '/v1/graph/query', { graph_id: 'g-a', query: `MATCH (n) WHERE n.label = '${MARKER_A}' RETURN n` }]);
  attempts.push(['POST', '/v1/graph/query', { graph_id: 'g-b', query: 'MATCH (n) RETURN n', parameters: { graph_id: 'g-a', tenant: 'tenant-a' } }]);
  let leaks = 0;
  const statuses = new Map<number, number>();
  for (const [method, url, body] of attempts) {
    const response = await send(server.port, method, url, b.api_key, body);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.body.includes(MARKER_A) || response.body.includes(workspaceA.id) && method !== 'DELETE' && response.status < 300) leaks++;
  }
  const countsAfter = (await send(server.port, 'GET', '/v1/graphs/g-a', a.api_key)).body;
  const stillThere = (await send(server.port, 'GET', `/v1/workspaces/${workspaceA.id}`, a.api_key)).status === 200;
  const aKeyWorks = (await send(server.port, 'GET', '/v1/graphs', a.api_key)).body.includes('g-a');
  if (countsAfter !== countsBefore || !stillThere || !aKeyWorks) leaks++;
  const statusText = [...statuses].sort(([x], [y]) => x - y).map(([status, n]) => `${n}×${status}`).join(', ');
  console.log(`| cross-tenant attempts (tenant B's key on tenant A's graph, workspace, import record, key) | ${attempts.length} | ${leaks} leaks; A's graph, workspace and key unchanged: ${countsAfter === countsBefore && stillThere && aKeyWorks}; answers ${statusText} |`);

  // ---- path traversal -----------------------------------------------------------------
  const sources = [
    '../outside.txt', '../../outside.txt', `${root}/outside.txt`, `file://${root}/outside.txt`, `file://${corpora}/../outside.txt`, '..%2Foutside.txt', '%2e%2e/outside.txt',
    '..\\outside.txt', 'inside.txt/../../outside.txt', './../outside.txt', 'inside.txt\u0000../outside.txt', '/etc/passwd', '../../../../../../etc/passwd', 'file:///etc/passwd',
    '....//outside.txt', '..;/outside.txt', '~/outside.txt', `${corpora}/../outside.txt`, '.../outside.txt', 'corpora/../../outside.txt', '/proc/self/environ', 'file:%2F%2F%2Fetc%2Fpasswd',
  ];
  const traversal = [...sources, ...sources.map((source) => source.replace(/\//g, '//')), ...sources.map((source) => encodeURI(source))].slice(0, 60);
  let escapes = 0;
  const traversalStatuses = new Map<number, number>();
  for (const source of traversal) {
    const response = await send(server.port, 'POST', '/v1/graphs/g-b/ingest', b.api_key, { source });
    traversalStatuses.set(response.status, (traversalStatuses.get(response.status) ?? 0) + 1);
    if (response.status < 300 || response.body.includes(MARKER_OUTSIDE) || /root:[^:]*:0:0:/.test(response.body)) escapes++;
  }
  const inside = await send(server.port, 'POST', '/v1/graphs/g-b/ingest', b.api_key, { source: 'inside.txt' });
  console.log(`| path traversal attempts (ingest sources leaving the corpora root) | ${traversal.length} | ${escapes} escapes; answers ${[...traversalStatuses].map(([s, n]) => `${n}×${s}`).join(', ')}; a file inside the root: ${inside.status} |`);

  // ---- load: point queries from many clients ----------------------------------------------
  const body = { graph_id: 'g-a', query: "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE id(a) = $actor RETURN id(c) AS c", parameters: { actor: 'a1' } };
  for (let i = 0; i < 200; i++) await send(server.port, 'POST', '/v1/graph/query', a.api_key, body);
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const begun = performance.now();
        const response = await send(server.port, 'POST', '/v1/graph/query', a.api_key, body).catch(() => ({ status: 0, body: '' }));
        latencies.push(performance.now() - begun);
        if (response.status !== 200) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  console.log(`| ${CLIENTS} concurrent clients, point queries for ${SECONDS} s | ${latencies.length} | ${(latencies.length / elapsed).toFixed(0)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ${errors} errors |`);

  // ---- SIGKILL during import and ingest --------------------------------------------------
  const N = 20_000;
  const big = { nodes: Array.from({ length: N }, (_, i) => ({ kind: 'Actor', id: `k${i}`, label: `Actor ${i}`, role: 'party' })), edges: Array.from({ length: N - 1 }, (_, i) => ({ type: 'OPPOSES', from: `k${i}`, to: `k${i + 1}` })) };
  const document = Array.from({ length: 400 }, (_, i) => `On ${1 + (i % 28)} May 2024 the Northern Front ${i % 2 ? 'attacked' : 'shelled'} the port of Sawakin, and the Coastal Council said it would never accept a ceasefire.`).join(' ');
  let partial = 0;
  let dangling = 0;
  let lost = 0;
  const outcomes: string[] = [];
  /** Polls the graph list (it reads the stored metadata, which commits in the same batch as the records) until `graph` is in it. */
  const committed = async (graph: string, deadline: number): Promise<boolean> => {
    while (Date.now() < deadline) {
      const listed = await send(server.port, 'GET', '/v1/graphs?page_size=500', a.api_key).catch(() => undefined);
      if (listed?.status === 200 && (JSON.parse(listed.body).graphs as { graph_id: string }[]).some((entry) => entry.graph_id === graph)) return true;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return false;
  };
  for (let kill = 0; kill < KILLS; kill++) {
    // kinds in turn: an import and an ingest killed at a random moment (mostly before they
    // commit), then each killed at once after it committed (its graph listed): the commit
    // must survive whole, whatever was still running after it (index, replicas, snapshot, reply)
    const viaIngest = kill % 2 === 1;
    const afterCommit = kill % 4 >= 2;
    const graph = `kill-${kill}`;
    const sending = viaIngest
      ? send(server.port, 'POST', `/v1/graphs/${graph}/ingest`, a.api_key, { source: `doc-${kill}.txt`, text: document })
      : send(server.port, 'POST', `/v1/graphs/${graph}/import`, a.api_key, big);
    sending.catch(() => undefined);
    const sawCommit = afterCommit
      ? await committed(graph, Date.now() + 120_000)
      : (await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * (viaIngest ? 3_000 : 6_000))), false);
    await stopServer(server, 'SIGKILL');
    server = await startProbeServer(data, corpora, { PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_AUTH_FAILURES_PER_MINUTE: '0' });
    const kind = `${viaIngest ? 'ingest' : 'import'} ${afterCommit ? 'after commit' : 'at random'}`;
    const exported = await send(server.port, 'GET', `/v1/graphs/${graph}/export`, a.api_key);
    if (exported.status === 404) {
      if (sawCommit) lost++;
      outcomes.push(`${kind}: absent`);
      continue;
    }
    const records = exported.body.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { node?: { id: string; kind: string }; edge?: { from: string; to: string } });
    const nodes = records.flatMap((record) => (record.node ? [record.node] : []));
    const nodeIds = new Set(nodes.map((node) => node.id));
    const edges = records.flatMap((record) => (record.edge ? [record.edge] : []));
    dangling += edges.filter((edge) => !nodeIds.has(edge.from) || !nodeIds.has(edge.to)).length;
    if (!viaIngest && (nodeIds.size !== N || edges.length !== N - 1)) partial++;
    // an ingest commits the document and its findings in one write: findings without the document, or nothing, would be partial
    if (viaIngest && !nodes.some((node) => node.kind === 'Document')) partial++;
    outcomes.push(`${kind}: ${viaIngest ? `ingested (${nodeIds.size} nodes, ${edges.length} edges)` : 'complete'}`);
  }
  console.log(`| SIGKILL during import (20k nodes, 20k edges) and ingest, at random and just after commit; restart on the same data | ${KILLS} | ${partial} partial graphs, ${dangling} dangling edges, ${lost} commits lost; after restart: ${outcomes.join('; ')} |`);
  await stopServer(server);

  // ---- rate limits, with the defaults ---------------------------------------------------
  const limited = await startProbeServer(path.join(root, 'data-limits'), corpora);
  const tenant = JSON.parse((await send(limited.port, 'POST', '/v1/keys', ADMIN, { tenant: 'tenant-r', scope: 'read' })).body).api_key as string;
  const perKey = new Map<number, number>();
  for (let i = 0; i < 650; i++) {
    const { status } = await send(limited.port, 'GET', '/v1/graphs', tenant);
    perKey.set(status, (perKey.get(status) ?? 0) + 1);
  }
  const adminMeanwhile = (await send(limited.port, 'POST', '/v1/keys', ADMIN, { tenant: 'tenant-s', scope: 'read' })).status;
  const wrongKey = new Map<number, number>();
  for (let i = 0; i < 150; i++) {
    const { status } = await send(limited.port, 'GET', '/v1/graphs', 'pk_0123456789abcdef_wrong');
    wrongKey.set(status, (wrongKey.get(status) ?? 0) + 1);
  }
  const show = (counts: Map<number, number>) => [...counts].map(([status, n]) => `${n}×${status}`).join(', ');
  console.log(`| rate limits (defaults): one key, 650 requests in a minute | 650 | ${show(perKey)} (limit 600); the admin meanwhile creates a key: ${adminMeanwhile} |`);
  console.log(`| rate limits (defaults): a wrong key from one address | 150 | ${show(wrongKey)} (limit 100 failures) |`);
  await stopServer(limited);
} finally {
  agent.destroy();
  await rm(root, { recursive: true, force: true });
}
