import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Two disjoint conflicts in one graph (the stalemate and spoiler vignettes of test/fixtures/conflicts,
 * imported together): the service finds them, names them, and assesses each on its own, with the
 * conclusions each has when it is the only conflict of its graph, while the whole graph mixes them.
 */
type Graph = { nodes: { id: string; kind: string }[]; edges: { from: string; to: string }[] };
const fixture = (name: string): Graph => {
  const { nodes, edges } = JSON.parse(readFileSync(new URL(`../fixtures/conflicts/${name}.json`, import.meta.url), 'utf8'));
  return { nodes, edges };
};

interface Run {
  framework_id: string;
  evidence: string[];
  findings: { key: string; value: unknown; evidence: string[] }[];
}
interface Point {
  period: string;
  conclusions: { framework_id: string; key: string; value: unknown }[];
}
interface Conflict {
  id: string;
  name: string;
  actors: string[];
  third_parties: string[];
  parties: { id: string; label: string }[];
}
interface Assessment {
  scope?: { actors: string[]; dyad: boolean; places: string[]; from?: string; to?: string; conflict?: string };
  assessments: Run[];
  trajectory?: { points: Point[] };
  conflicts?: { conflict: Conflict; assessments: Run[]; trajectory?: { points: Point[] } }[];
}

/** The conclusions a run gives about the conflict as a whole (a key it gives once, a plain value). */
const conclusions = (runs: Run[]) =>
  Object.fromEntries(
    runs.flatMap((run) =>
      run.findings
        .filter((finding) => typeof finding.value !== 'object' && run.findings.filter((other) => other.key === finding.key).length === 1)
        .map((finding) => [`${run.framework_id}.${finding.key}`, finding.value]),
    ),
  );

describe('conflicts in one graph, one at a time', () => {
  let t: TestApp;
  let key: string;
  const workspaces: Record<string, string> = {};
  const stalemate = fixture('stalemate');
  const spoiler = fixture('spoiler');
  const idsOf = (graph: Graph) => new Set(graph.nodes.map((node) => node.id));
  const post = (url: string, payload: object, apiKey = key) => t.app.inject({ method: 'POST', url, headers: { 'x-api-key': apiKey }, payload });
  const get = (url: string, apiKey = key) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  const assess = async (name: string, body: object) => {
    const response = await post(`/v1/workspaces/${workspaces[name]}/assess`, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Assessment;
  };

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('analysts');
    const graphs = { stalemate, spoiler, both: { nodes: [...stalemate.nodes, ...spoiler.nodes], edges: [...stalemate.edges, ...spoiler.edges] } };
    for (const [name, graph] of Object.entries(graphs)) {
      const created = await post('/v1/workspaces', { name, domain: 'armed', scale: 'macro', tier: 'full', graph_id: name });
      workspaces[name] = created.json().id;
      const imported = await post(`/v1/graphs/${name}/import`, graph);
      expect(imported.statusCode, imported.body).toBe(200);
    }
  }, 60_000);
  afterAll(async () => t.close());

  it('finds the two conflicts, names them by their parties, and gives each the id it has alone', async () => {
    const response = await get('/v1/graphs/both/conflicts');
    expect(response.statusCode).toBe(200);
    const { conflicts, total } = response.json() as { conflicts: Conflict[]; total: number };
    expect(total).toBe(2);
    const [first, second] = conflicts;
    const own = (conflict: Conflict) => (idsOf(stalemate).has(conflict.actors[0]) ? stalemate : spoiler);
    expect(new Set([own(first), own(second)]).size).toBe(2);
    for (const conflict of conflicts) {
      const graph = own(conflict);
      expect(conflict.actors.every((id) => idsOf(graph).has(id))).toBe(true);
      // the international organisation of each vignette deals with it, and is no side of it
      expect(conflict.third_parties.every((id) => idsOf(graph).has(id))).toBe(true);
      expect(conflict.third_parties.length).toBe(1);
      expect(conflict.name).toContain(conflict.parties[0].label);
      const alone = (await get(`/v1/graphs/${graph === stalemate ? 'stalemate' : 'spoiler'}/conflicts`)).json() as { conflicts: Conflict[] };
      expect(alone.conflicts.map((candidate) => candidate.id)).toEqual([conflict.id]);
      expect(alone.conflicts[0].name).toBe(conflict.name);
    }
    expect((await get('/v1/graphs/both/conflicts')).body).toBe(response.body);
  });

  it('assesses each conflict on its own, as it reads alone, while the whole graph mixes them', { timeout: 120_000 }, async () => {
    const together = await assess('both', { by_conflict: true, trajectory: { period: 'month' } });
    expect(together.conflicts).toHaveLength(2);
    for (const { conflict, assessments, trajectory } of together.conflicts!) {
      const name = idsOf(stalemate).has(conflict.actors[0]) ? 'stalemate' : 'spoiler';
      const other = idsOf(name === 'stalemate' ? spoiler : stalemate);
      // no finding of the conflict rests on a record of the other
      const evidence = assessments.flatMap((run) => run.findings.flatMap((finding) => finding.evidence));
      expect(evidence.length).toBeGreaterThan(0);
      expect(evidence.filter((id) => other.has(id))).toEqual([]);
      const alone = await assess(name, { trajectory: { period: 'month' } });
      const read = conclusions(assessments);
      expect(read['glasl.stage']).toBeDefined();
      expect(read['glasl.stage']).toBe(conclusions(alone.assessments)['glasl.stage']);
      expect(read['kriesberg.phase']).toBe(conclusions(alone.assessments)['kriesberg.phase']);
      // the trajectory per conflict: the last period's stage is the conflict's stage
      expect(trajectory!.points.at(-1)!.conclusions.find((c) => c.framework_id === 'glasl' && c.key === 'stage')?.value).toBe(read['glasl.stage']);
      // asked alone by its id, the conflict reads the same
      const byId = await assess('both', { scope: { conflict: conflict.id } });
      expect(byId.scope).toMatchObject({ conflict: conflict.id, actors: conflict.actors });
      expect(conclusions(byId.assessments)).toEqual(read);
    }
    // together, the whole graph's findings rest on both vignettes' records
    const evidence = new Set(together.assessments.flatMap((run) => run.findings.flatMap((finding) => finding.evidence)));
    expect([...evidence].some((id) => idsOf(stalemate).has(id)) && [...evidence].some((id) => idsOf(spoiler).has(id))).toBe(true);
  });

  it('scopes to a dyad or a period named by label, and answers a name it does not know with a 400', async () => {
    const dyad = await assess('both', { scope: { dyad: ['Northern Army', 'southern front'] }, frameworks: ['glasl'] });
    expect(dyad.scope).toEqual({ actors: ['army', 'front'], dyad: true, places: [] });
    const evidence = dyad.assessments.flatMap((run) => run.evidence);
    expect(evidence.length).toBeGreaterThan(0);
    expect(evidence.every((id) => !idsOf(spoiler).has(id))).toBe(true);

    const unknown = await post(`/v1/workspaces/${workspaces.both}/assess`, { scope: { actors: ['Nobody Army'] } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'scope_not_found', field: 'scope.actors' });
    const backwards = await post(`/v1/workspaces/${workspaces.both}/assess`, { scope: { from: '2024-05-01', to: '2024-01-01' } });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().code).toBe('scope_invalid');
    const noSuchDay = await post(`/v1/workspaces/${workspaces.both}/assess`, { scope: { from: '2024-02-30' } });
    expect(noSuchDay.statusCode).toBe(400);
    expect(noSuchDay.json()).toMatchObject({ code: 'scope_invalid', field: 'scope.from' });
    const notAConflict = await post(`/v1/workspaces/${workspaces.both}/assess`, { scope: { conflict: 'conflict_000000000000' } });
    expect(notAConflict.statusCode).toBe(400);
  });

  it("analyze reasons over the scope its question names, and says so", async () => {
    const response = await post(`/v1/workspaces/${workspaces.both}/analyze`, { query: 'What stage of escalation is it at between the Northern Army and the Southern Front since October 2023?' });
    expect(response.statusCode).toBe(200);
    const analysis = response.json() as { scope?: Assessment['scope'] & { source: string }; frameworks: { id: string; evidence: string[] }[] };
    expect(analysis.scope).toEqual({ actors: ['army', 'front'], dyad: true, places: [], from: '2023-10-01', source: 'question' });
    expect(analysis.frameworks.flatMap((framework) => framework.evidence).every((id) => !idsOf(spoiler).has(id))).toBe(true);
    const unscoped = (await post(`/v1/workspaces/${workspaces.both}/analyze`, { query: 'What stage of escalation is the conflict in?' })).json();
    expect(unscoped.scope).toBeUndefined();
  });

  it("keeps one tenant's conflicts from another", async () => {
    const other = await t.keyFor('others');
    expect((await get('/v1/graphs/both/conflicts', other)).statusCode).toBe(404);
  });
});
