import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTERED_SCHEMAS } from '../../server/schemas.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { SUDAN_SENTENCE } from '../extract/structure/fixtures.ts';

/**
 * The OpenAPI document against the server it describes: every response body schema is a
 * component named by its $id, every $ref resolves, and real responses of each route
 * validate against the schema the document gives for them.
 */

let t: TestApp;
let admin: string;
let key: string;
let doc: any;
let ajv: Ajv2020;

beforeAll(async () => {
  t = await makeTestApp();
  admin = t.adminKey;
  key = await t.keyFor('acme');
  doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the document is one resource, so '#/components/…' refs resolve in it.
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
});
afterAll(async () => t.close());

function collectRefs(value: unknown, into = new Set<string>()): Set<string> {
  if (value !== null && typeof value === 'object') {
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') into.add(ref);
    Object.values(value).forEach((member) => collectRefs(member, into));
  }
  return into;
}

/** Checks a response against the schema the document gives for its route and status. */
function expectDocumented(method: string, path: string, response: { statusCode: number; json(): unknown }): void {
  const content = doc.paths[path]?.[method]?.responses?.[response.statusCode]?.content;
  expect(content, `${method} ${path} ${response.statusCode} is documented`).toBeDefined();
  const schema = (content['application/json'] ?? content['application/problem+json']).schema;
  const validate = ajv.compile({ $ref: `openapi.json${schema.$ref ?? ''}`, ...(schema.$ref ? {} : schema) });
  const body = response.json();
  expect(validate(body), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

describe('GET /v1/openapi.json', () => {
  it('lists every registered response schema under components/schemas by its $id, and every $ref resolves', () => {
    expect(doc.openapi).toBe('3.1.0');
    const names = REGISTERED_SCHEMAS.map((schema) => schema.$id);
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...names].sort());
    const refs = collectRefs(doc);
    expect(refs.size).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref, 'a local component reference').toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
      expect(doc.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    }
    for (const name of names) expect(() => ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` }), name).not.toThrow();
  });

  it('refers each route to its one response schema', () => {
    const schemaOf = (method: string, path: string, status: number) => doc.paths[path][method].responses[status].content['application/json'].schema;
    expect(schemaOf('post', '/v1/workspaces', 201)).toEqual({ $ref: '#/components/schemas/Workspace' });
    expect(schemaOf('get', '/v1/workspaces/{id}', 200)).toEqual({ $ref: '#/components/schemas/Workspace' });
    expect(schemaOf('get', '/v1/workspaces', 200)).toEqual({ $ref: '#/components/schemas/WorkspaceList' });
    expect(schemaOf('get', '/v1/graphs', 200)).toEqual({ $ref: '#/components/schemas/GraphList' });
    expect(schemaOf('get', '/v1/graphs/{graph_id}', 200)).toEqual({ $ref: '#/components/schemas/GraphDetail' });
    expect(schemaOf('post', '/v1/graphs/{graph_id}/import', 200)).toEqual({ $ref: '#/components/schemas/ImportSummary' });
    expect(schemaOf('post', '/v1/keys', 201)).toEqual({ $ref: '#/components/schemas/NewApiKey' });
    expect(schemaOf('get', '/v1/keys', 200)).toEqual({ $ref: '#/components/schemas/ApiKeyList' });
    expect(schemaOf('post', '/v1/workspaces/{id}/extract', 200)).toEqual({ $ref: '#/components/schemas/Extraction' });
    expect(schemaOf('post', '/v1/graphs/{graph_id}/ingest', 200)).toEqual({ $ref: '#/components/schemas/Ingestion' });
    expect(schemaOf('post', '/v1/graph/query', 200)).toEqual({ $ref: '#/components/schemas/GraphQueryResult' });
    expect(schemaOf('post', '/v1/graphs/{graph_id}/query', 200)).toEqual({ $ref: '#/components/schemas/GraphQueryResult' });
    expect(schemaOf('post', '/v1/workspaces/{id}/assess', 200)).toEqual({ $ref: '#/components/schemas/Assessment' });
    expect(schemaOf('post', '/v1/workspaces/{id}/analyze', 200)).toEqual({ $ref: '#/components/schemas/Analysis' });
    expect(schemaOf('get', '/v1/frameworks', 200)).toEqual({ $ref: '#/components/schemas/FrameworkList' });
  });

  it('names every request body by its schema', () => {
    const bodyOf = (method: string, path: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
    expect(bodyOf('post', '/v1/keys')).toEqual({ $ref: '#/components/schemas/ApiKeyCreate' });
    expect(bodyOf('post', '/v1/workspaces/{id}/extract')).toEqual({ $ref: '#/components/schemas/ExtractRequest' });
    expect(bodyOf('post', '/v1/graphs/{graph_id}/ingest')).toEqual({ $ref: '#/components/schemas/IngestRequest' });
    expect(bodyOf('post', '/v1/graph/query')).toEqual({ $ref: '#/components/schemas/GraphQueryRequest' });
    expect(bodyOf('post', '/v1/graphs/{graph_id}/query')).toEqual({ $ref: '#/components/schemas/PatternQueryRequest' });
    expect(bodyOf('post', '/v1/graphs/{graph_id}/import')).toEqual({ $ref: '#/components/schemas/GraphImport' });
    expect(bodyOf('post', '/v1/workspaces/{id}/assess')).toEqual({ $ref: '#/components/schemas/AssessRequest' });
    expect(bodyOf('post', '/v1/workspaces/{id}/analyze')).toEqual({ $ref: '#/components/schemas/AnalyzeRequest' });
  });

  it('documents errors as application/problem+json, 429 on every authenticated route and Retry-After on 429 and 503', () => {
    let authenticated = 0;
    for (const [path, operations] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (Number(status) < 400) continue;
          expect(Object.keys(response.content), `${method} ${path} ${status}`).toEqual(['application/problem+json']);
          expect(response.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
          if (status === '429' || status === '503') expect(response.headers?.['Retry-After'], `${method} ${path} ${status}`).toBeDefined();
        }
        if (operation.security?.length === 0) continue;
        authenticated++;
        expect(operation.responses, `${method} ${path}`).toHaveProperty('401');
        expect(operation.responses, `${method} ${path}`).toHaveProperty('429');
      }
    }
    expect(authenticated).toBeGreaterThan(15);
    for (const path of ['/v1/graph/query', '/v1/workspaces/{id}/assess', '/v1/workspaces/{id}/analyze', '/v1/workspaces/{id}/extract']) {
      expect(doc.paths[path].post.responses, path).toHaveProperty('503');
    }
  });

  it('describes what the routes answer', async () => {
    const call = async (method: 'GET' | 'POST', url: string, payload?: object, apiKey = key) => {
      const response = await t.app.inject({ method, url, headers: { 'x-api-key': apiKey }, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response;
    };
    expectDocumented('post', '/v1/keys', await call('POST', '/v1/keys', { tenant: 'acme', name: 'second' }, admin));
    expectDocumented('get', '/v1/keys', await call('GET', '/v1/keys', undefined, admin));

    const created = await call('POST', '/v1/workspaces', { name: 'Sudan', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'sudan' });
    expectDocumented('post', '/v1/workspaces', created);
    const workspaceId = created.json<{ id: string }>().id;
    expectDocumented('get', '/v1/workspaces/{id}', await call('GET', `/v1/workspaces/${workspaceId}`));
    expectDocumented('get', '/v1/workspaces', await call('GET', '/v1/workspaces'));

    const extracted = await call('POST', `/v1/workspaces/${workspaceId}/extract`, { text: SUDAN_SENTENCE, document_date: '2024-03-04' });
    expectDocumented('post', '/v1/workspaces/{id}/extract', extracted);
    expect(extracted.json()).toMatchObject({ committed: true, added: { nodes_created: expect.any(Number) } });
    const preview = await call('POST', `/v1/workspaces/${workspaceId}/extract`, { text: SUDAN_SENTENCE, commit: false });
    expectDocumented('post', '/v1/workspaces/{id}/extract', preview);
    expect(preview.json()).toMatchObject({ committed: false, added: null });

    const ingested = await call('POST', '/v1/graphs/sudan/ingest', { source: 'note', text: `${SUDAN_SENTENCE} The talks in Jeddah failed.` });
    expectDocumented('post', '/v1/graphs/{graph_id}/ingest', ingested);
    expect(ingested.json().found.actors).toBe(ingested.json().summary.nodes.Actor);

    expectDocumented('post', '/v1/graphs/{graph_id}/import', await call('POST', '/v1/graphs/imported/import', {
      nodes: [{ kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces' }],
      edges: [],
    }));
    expectDocumented('get', '/v1/graphs', await call('GET', '/v1/graphs'));
    expectDocumented('get', '/v1/graphs/{graph_id}', await call('GET', '/v1/graphs/sudan'));

    const query = "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN a, c";
    const queried = await call('POST', '/v1/graph/query', { query, graph_id: 'sudan', include_provenance: true });
    expectDocumented('post', '/v1/graph/query', queried);
    expect(queried.json().claims.length).toBeGreaterThan(0);
    expectDocumented('post', '/v1/graphs/{graph_id}/query', await call('POST', '/v1/graphs/sudan/query', { match: '(l:Location)', return: 'l' }));

    const missing = await t.app.inject({ url: '/v1/workspaces/ws_missing', headers: { 'x-api-key': key } });
    expect(missing.statusCode).toBe(404);
    expectDocumented('get', '/v1/workspaces/{id}', missing);
  });
});
