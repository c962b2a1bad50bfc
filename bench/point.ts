/**
 * bench:point — a point query's HTTP round trip (issue 28: p50 ≤ 0.4 ms on loopback).
 * The server runs as `npm start` runs it (child process, 127.0.0.1, request logging on),
 * over a generated conflict graph of --facts facts; this process is the client, on
 * node:http with keep-alive (fetch alone costs more than the target). Prints p50/p99, and
 * the serving process's CPU per request (every thread, cpuMsOf: what the machine's load
 * changes far less than latency), for each row:
 *   - sequentially, one request at a time: GET /v1/health (no key, no work: the floor of
 *     HTTP itself), GET /v1/graphs/{id} (the key checked, the graph looked up), and the
 *     point query (Q3 of bench/query: one actor's red-line claims);
 *   - the point query from --clients concurrent clients (50 by default), with requests/s;
 *   - in the same rounds, a bare fastify app's GET and POST (bench/bare-fastify.ts: no hooks,
 *     log, schemas or key; the point query's answer as a fixed body): the floor of fastify and
 *     the loopback socket on this machine, which the server's rows are read against.
 * With --cpu-prof-dir the server writes a CPU profile there (where the time goes).
 *
 *   npm run bench:point [-- --facts 10000 --requests 2000 --clients 50]
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate, interchange } from './conflict-graph.ts';
import { keepAliveClient, postJson, startServer, stopServer } from './http.ts';
import { cpuMsOf, percentile } from './stats.ts';
import { spawnServer } from '../test/helpers/server-process.ts';

const { values: args } = parseArgs({
  options: {
    facts: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '2000' },
    clients: { type: 'string', default: '50' },
    'cpu-prof-dir': { type: 'string' },
  },
});
const REQUESTS = Number(args.requests);
const CLIENTS = Number(args.clients);
const QUERY = "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE id(a) = $actor AND c.type = 'RedLine' RETURN id(c) AS c";

async function timed(count: number, send: () => Promise<{ status: number; body: string }>): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await send();
    latencies.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`answered ${response.status}: ${response.body.slice(0, 300)}`);
  }
  return latencies;
}

/** The round trips of one kind of request, and the CPU its server spent on them. */
interface Measured {
  latencies: number[];
  cpuMs: number;
}

/** `timed`, adding to `into` the latencies and the CPU the process `pid` (with its descendants) spent meanwhile. */
async function measured(into: Measured, pid: number, count: number, send: () => Promise<{ status: number; body: string }>): Promise<void> {
  const before = await cpuMsOf(pid);
  into.latencies.push(...(await timed(count, send)));
  into.cpuMs += (await cpuMsOf(pid)) - before;
}

function row(what: string, { latencies, cpuMs }: Measured, extra = ''): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  const cpuUs = (cpuMs * 1000) / sorted.length;
  console.log(`| ${what} | ${sorted.length} | ${percentile(sorted, 50).toFixed(3)} | ${percentile(sorted, 99).toFixed(2)} | ${cpuUs.toFixed(0)} | ${extra} |`);
}

const generated = generate(Number(args.facts));
const { nodes, edges } = interchange(generated.write);
// the actor with the most claims: a point query with rows
const claims = new Map<string, number>();
for (const edge of edges) if (edge.type === 'ASSERTS') claims.set(edge.from, (claims.get(edge.from) ?? 0) + 1);
const actor = [...claims].sort((a, b) => b[1] - a[1])[0][0];

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-point-'));
const adminKey = 'pk_bench_point_admin_key_0123456789abcdef';
const server = await startServer(
  { PARLEY_DATA_DIR: dir, PARLEY_ADMIN_KEY: adminKey, PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_NER_MODEL_DIR: 'none' },
  args['cpu-prof-dir'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof-dir']}`] : [],
);
const client = keepAliveClient(server.port, CLIENTS);
const request = client.send;
let bare: ChildProcess | undefined;
try {
  const { base } = server;
  const key = (await postJson(`${base}/v1/keys`, adminKey, { tenant: 'bench', scope: 'write' })).json.api_key as string;
  const imported = await postJson(`${base}/v1/graphs/g/import`, key, { nodes, edges });
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${JSON.stringify(imported.json)}`);
  const body = JSON.stringify({ graph_id: 'g', query: QUERY, parameters: { actor } });
  const query = () => request('POST', '/v1/graph/query', key, body);
  const answer = (await query()).body;
  const rows = JSON.parse(answer).rows.length;
  const bareApp = await spawnServer(['--import', 'tsx', new URL('./bare-fastify.ts', import.meta.url).pathname, answer], {});
  bare = bareApp.child;
  const barePort = Number(new URL(bareApp.base).port);
  const bareClient = keepAliveClient(barePort, 1);
  const bareGet = () => bareClient.send('GET', '/v1/health');
  const barePost = () => bareClient.send('POST', '/v1/graph/query', undefined, body);
  // warm-up: JIT, the plan cache, the connection pool
  await timed(500, query);
  await timed(200, () => request('GET', '/v1/health'));
  await timed(200, () => request('GET', '/v1/graphs/g', key));
  await timed(200, bareGet);
  await timed(200, barePost);

  console.log(`bench:point — ${generated.facts.toLocaleString('en-US')} facts; the point query answers ${rows} rows; load average ${loadavg()[0].toFixed(1)}`);
  console.log('| sequential, one client | requests | p50 ms | p99 ms | server CPU µs per request | |');
  console.log('|---|---|---|---|---|---|');
  // interleaved in rounds, so the machine's moods fall on every kind alike
  const [health, graph, point, floorGet, floorPost]: Measured[] = Array.from({ length: 5 }, () => ({ latencies: [], cpuMs: 0 }));
  const serverPid = server.process.pid!;
  const barePid = bare.pid!;
  for (let round = 0; round < 10; round++) {
    await measured(health, serverPid, REQUESTS / 10, () => request('GET', '/v1/health'));
    await measured(graph, serverPid, REQUESTS / 10, () => request('GET', '/v1/graphs/g', key));
    await measured(point, serverPid, REQUESTS / 10, query);
    await measured(floorGet, barePid, REQUESTS / 10, bareGet);
    await measured(floorPost, barePid, REQUESTS / 10, barePost);
  }
  bareClient.close();
  row('GET /v1/health (no key: HTTP itself)', health);
  row('GET /v1/graphs/g (key checked, graph looked up)', graph);
  row('POST /v1/graph/query, point query', point);
  row('bare fastify GET (the floor: fastify and the socket)', floorGet);
  row('bare fastify POST of the same body, the answer as a fixed string', floorPost);

  const all: Measured = { latencies: [], cpuMs: 0 };
  const started = performance.now();
  const cpuBefore = await cpuMsOf(serverPid);
  await Promise.all(Array.from({ length: CLIENTS }, async () => all.latencies.push(...(await timed(Math.ceil(REQUESTS / CLIENTS) * 5, query)))));
  all.cpuMs = (await cpuMsOf(serverPid)) - cpuBefore;
  const seconds = (performance.now() - started) / 1000;
  row(`POST /v1/graph/query, point query, ${CLIENTS} concurrent clients`, all, `${(all.latencies.length / seconds).toFixed(0)} requests/s`);
} finally {
  bare?.kill();
  client.close();
  await stopServer(server);
  await rm(dir, { recursive: true, force: true });
}
