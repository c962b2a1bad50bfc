/**
 * The manifest of a framework module (manifest.json beside its rules.pl; frameworks/README.md,
 * "manifest.json"): what the loader checks before it consults the rules, and what the HTTP
 * layer lists. The node kinds and edge types come from the ontology, the questions from the
 * intents, so a manifest never names what the service does not know.
 */
import { Type, type Static } from '@sinclair/typebox';
import { EDGE_TYPES, NODE_KINDS } from '../ontology/index.ts';
import { INTENTS } from './intents.ts';

export const FrameworkManifestSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9_]{1,39}$', description: 'lower-case id, the folder name' }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    citation: Type.String({ minLength: 1, maxLength: 500 }),
    question: Type.String({ minLength: 1, maxLength: 500 }),
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$' }),
    reads: Type.Object(
      {
        nodes: Type.Array(Type.Union(NODE_KINDS.map((kind) => Type.Literal(kind))), { minItems: 1, uniqueItems: true }),
        edges: Type.Array(Type.Union(EDGE_TYPES.map((type) => Type.Literal(type))), { uniqueItems: true }),
      },
      { additionalProperties: false },
    ),
    answers: Type.Array(Type.Union(INTENTS.map((intent) => Type.Literal(intent))), {
      minItems: 1,
      uniqueItems: true,
      description: 'the kinds of question this framework answers (analyze routes by them)',
    }),
    time_aware: Type.Optional(Type.Boolean({ description: 'its conclusions depend on dates: assess can give its trajectory per period' })),
  },
  { additionalProperties: false, $id: 'FrameworkManifest' },
);
export type FrameworkManifest = Static<typeof FrameworkManifestSchema>;
