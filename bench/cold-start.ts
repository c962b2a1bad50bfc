/**
 * The cold-start rows of bench:frameworks: a real server process (server/start.mjs, as `npm start`
 * runs it) over a data directory holding two generated conflict graphs of the same size, restarted
 * (a new process on the same directory) before each first call, so that every call meets a graph
 * no client touched since the start:
 *
 *   - the setup process: a key, a workspace on each graph, and an assess of graph `remembered`
 *     (the graph the restart preload names, engine/reason/preload.ts); then closed (SIGTERM);
 *   - restart 1: the first point query on the other graph (`other`) as soon as the server listens,
 *     then its first assess right after;
 *   - restart 2: nothing asked for 5 s after the server listens (/v1/health sampled every 10 ms
 *     meanwhile, from a process of its own: what the background loading costs a client), then
 *     the first assess of `other` (a graph the restart preload does not name);
 *   - restart 3: 5 s idle, then the first assess of `remembered`, then one write to it
 *     (an import of one node) and the assess again: warm.
 *
 * Target (issue 28, a note, not a test): the first assess of any graph at 100k facts within 1 s
 * once the server has listened for 5 s.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ParleyStore, type GraphWrite } from '../engine/store/store.ts';
import { generate } from './conflict-graph.ts';
import { postJson, probeHealth, startServer, stopServer, type ServerProcess } from './http.ts';
import { median, percentile } from './stats.ts';

const TENANT = 'bench';
const ADMIN_KEY = 'pk_bench_cold_start_admin_0123456789abcdef';
/** Records per store write: a client importing a large graph in parts. */
const WRITE_CHUNK = 5_000;
/** How long the server listens, untouched, before the assess rows ask (the "after 5 s"). */
export const LISTENING_BEFORE_MS = 5_000;
const POINT_QUERY = "MATCH (a:Actor {label: 'nobody'}) RETURN a";

/** Writes a generated graph into the store (tenant 'bench') in parts of WRITE_CHUNK records, as a client importing a large graph would. */
export async function writeInChunks(store: ParleyStore, graphId: string, write: GraphWrite): Promise<void> {
  for (let i = 0; i < write.nodes.length; i += WRITE_CHUNK) await store.writeGraph(TENANT, graphId, { nodes: write.nodes.slice(i, i + WRITE_CHUNK), edges: [] });
  for (let i = 0; i < write.edges.length; i += WRITE_CHUNK) await store.writeGraph(TENANT, graphId, { nodes: [], edges: write.edges.slice(i, i + WRITE_CHUNK) });
}

const fmt = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

async function timedPost(url: string, key: string, body: unknown): Promise<{ ms: number; status: number; json: any }> {
  const started = performance.now();
  const response = await postJson(url, key, body);
  return { ms: performance.now() - started, ...response };
}

function expectOk(what: string, response: { status: number; json: any }): void {
  if (response.status !== 200 && response.status !== 201) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.json)}`);
}

/** Stopped frameworks of an assess answer, named. */
function stopped(json: any): string {
  const names = ((json.assessments ?? []) as any[]).filter((entry) => entry.error).map((entry) => entry.framework_id);
  return names.length ? `; stopped: ${names.join(', ')}` : '';
}

/**
 * Runs the cold-start rows at `target` facts per graph and prints them (a markdown table);
 * `env` is added to the server's environment (PARLEY_* settings).
 */
export async function coldStartRows(target: number, env: Record<string, string> = {}): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-cold-'));
  const serverEnv = { PARLEY_DATA_DIR: dir, PARLEY_ADMIN_KEY: ADMIN_KEY, PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_NER_MODEL_DIR: 'none', ...env };
  let server: ServerProcess | undefined;
  // each row printed as it is measured: a later failure keeps the earlier figures
  const row = (what: string, value: string) => console.log(`| ${what} | ${value} |`);
  const start = async () => {
    const started = performance.now();
    server = await startServer(serverEnv);
    return { base: server.base, listeningMs: performance.now() - started };
  };
  const restart = async () => {
    if (server) await stopServer(server);
    server = undefined;
    return start();
  };
  try {
    const generated = generate(target);
    const store = await ParleyStore.open(path.join(dir, 'store'));
    for (const graphId of ['remembered', 'other']) await writeInChunks(store, graphId, generated.write);
    await store.close(); // (the graphs' snapshots written, as a server's close writes them)
    console.log(`\ncold start: a server process restarted on a data directory of two ${generated.facts.toLocaleString('en')}-fact graphs (the first call on each after a restart):`);
    console.log('| cold start | value |');
    console.log('|---|---|');

    // the setup process: a key, the workspaces, and an assess of `remembered` (the graph the restart preload names)
    let { base } = await start();
    const keyResponse = await postJson(`${base}/v1/keys`, ADMIN_KEY, { tenant: TENANT, scope: 'write' });
    expectOk('key creation', keyResponse);
    const key = keyResponse.json.api_key as string;
    const workspaces: Record<string, string> = {};
    for (const graphId of ['remembered', 'other']) {
      const workspace = await postJson(`${base}/v1/workspaces`, key, { name: graphId, domain: 'armed', scale: 'macro', tier: 'full', graph_id: graphId });
      expectOk('workspace creation', workspace);
      workspaces[graphId] = workspace.json.id as string;
    }
    expectOk('setup assess', await postJson(`${base}/v1/workspaces/${workspaces.remembered}/assess`, key, {}));

    // restart 1: the first query as soon as the server listens, then the first assess
    let listeningMs: number;
    ({ base, listeningMs } = await restart());
    const query = await timedPost(`${base}/v1/graph/query`, key, { graph_id: 'other', query: POINT_QUERY });
    expectOk('first query', query);
    const assessAfterQuery = await timedPost(`${base}/v1/workspaces/${workspaces.other}/assess`, key, {});
    expectOk('first assess after the first query', assessAfterQuery);
    row('restart: spawn to listening, ms', fmt(listeningMs));
    row('first query after a restart (a point query on a graph the preload does not name, asked as the server listens), ms', fmt(query.ms));
    row('first assess of that graph, right after that query, ms', fmt(assessAfterQuery.ms) + stopped(assessAfterQuery.json));

    // restart 2: 5 s idle (health probed), then the first assess of the graph the preload does not name
    ({ base } = await restart());
    const probe = await probeHealth(base, 10, LISTENING_BEFORE_MS + 60_000);
    await new Promise((resolve) => setTimeout(resolve, LISTENING_BEFORE_MS));
    const health = await probe.stop();
    const assessOther = await timedPost(`${base}/v1/workspaces/${workspaces.other}/assess`, key, {});
    expectOk('first assess of the untouched graph', assessOther);
    row(`/v1/health every 10 ms over the ${LISTENING_BEFORE_MS / 1000} s after listening (background loading): p50 / p99 / max ms, errors`, `${fmt(median(health))} / ${fmt(percentile(health, 99))} / ${fmt(Math.max(...health))}, ${health.errors}`);
    row(`first assess after a restart, untouched graph the preload does not name, asked ${LISTENING_BEFORE_MS / 1000} s after listening, ms (target ≤ 1000)`, fmt(assessOther.ms) + stopped(assessOther.json));

    // restart 3: 5 s idle, then the first assess of the graph the preload names; one write; warm
    ({ base } = await restart());
    await new Promise((resolve) => setTimeout(resolve, LISTENING_BEFORE_MS));
    const assessRemembered = await timedPost(`${base}/v1/workspaces/${workspaces.remembered}/assess`, key, {});
    expectOk('first assess of the remembered graph', assessRemembered);
    expectOk('touch import', await postJson(`${base}/v1/graphs/remembered/import`, key, { nodes: [{ kind: 'Issue', id: 'cold-touch', label: 'bench touch' }], edges: [] }));
    const warm = await timedPost(`${base}/v1/workspaces/${workspaces.remembered}/assess`, key, {});
    expectOk('warm assess', warm);
    row(`first assess after a restart, untouched graph the preload names (the one last assessed), asked ${LISTENING_BEFORE_MS / 1000} s after listening, ms (target ≤ 1000)`, fmt(assessRemembered.ms) + stopped(assessRemembered.json));
    row('warm: the same assess after one write (an import of one node), ms', fmt(warm.ms) + stopped(warm.json));
  } finally {
    if (server) await stopServer(server);
    await rm(dir, { recursive: true, force: true });
  }
}
