import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_SCHEMAS, TYPES_FILE, renderTypes } from '../../packages/client/generate-types.ts';

describe("the client's types, generated from the server's schemas", () => {
  it('src/types.ts is what the generator writes from server/schemas.ts now', () => {
    expect(readFileSync(TYPES_FILE, 'utf8'), 'packages/client/src/types.ts is out of date: run npm run generate -w @parley/client').toBe(renderTypes());
  });

  it('types every registered schema by its $id, and PageQuery', () => {
    const declared = [...readFileSync(TYPES_FILE, 'utf8').matchAll(/^export type (\w+) =/gm)].map((match) => match[1]);
    expect(declared).toEqual(API_SCHEMAS.map(([name]) => name));
    expect(declared).toEqual(expect.arrayContaining(['Problem', 'GraphQueryRequest', 'GraphQueryResult', 'PageQuery']));
  });

  it('renders optional fields, literals, unions, references and open objects as the schema means them', () => {
    const rendered = renderTypes([
      ['Point', { type: 'object', required: ['x'], properties: { x: { type: 'integer' }, y: { type: 'number', description: 'metres' } } }],
      ['Shape', {
        description: 'a shape',
        type: 'object',
        required: ['kind', 'at'],
        properties: { kind: { enum: ['dot', "it's"] }, at: { $ref: 'Point' }, tags: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
        additionalProperties: true,
      }],
    ]);
    expect(rendered).toContain('export type Point = {\n  x: number;\n  /** metres */\n  y?: number;\n};');
    expect(rendered).toContain("/** a shape */\nexport type Shape = {\n  kind: 'dot' | 'it\\'s';\n  at: Point;\n  tags?: Array<string | null>;\n  [key: string]: unknown;\n};");
  });

  it('stops at a keyword or a reference it cannot render rather than dropping it', () => {
    expect(() => renderTypes([['Both', { type: 'object', properties: { a: { allOf: [] } as object } }]])).toThrow("Both.a: the keyword 'allOf' has no TypeScript rendering");
    expect(() => renderTypes([['Dangling', { $ref: 'Elsewhere' }]])).toThrow("Dangling: $ref 'Elsewhere' names no registered schema");
  });
});
