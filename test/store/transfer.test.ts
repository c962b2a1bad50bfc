import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../engine/errors.ts';
import { checkStrings } from '../../engine/input-checks.ts';
import { graphWriteFromJson, graphWriteFromJsonLines, parseGraphJson } from '../../engine/store/transfer.ts';
import { GraphImportSchema } from '../../server/schemas.ts';

/**
 * The import route turns its body schema off (graphs.ts: the records are checked a slice at a
 * time by transfer.ts), so the schema only documents what transfer.ts refuses. This keeps the
 * two from drifting: on each body, both accept, or both refuse at the same place.
 */
describe('the import body schema and transfer.ts', () => {
  /** A body, and where both must refuse it (a JSON pointer, as the schema names it), or undefined where both accept it. */
  const BODIES: [string, unknown, string | undefined][] = [
    ['no members', {}, undefined],
    ['only nodes', { nodes: [] }, undefined],
    ['only edges', { edges: [] }, undefined],
    ['records with properties and extra labels', { nodes: [{ kind: 'Actor', id: 'a', labels: ['Armed'], label: 'A', confidence: 0.5 }], edges: [{ type: 'OPPOSES', from: 'a', to: 'a', weight: 2 }] }, undefined],
    ['an unknown member', { nodes: [], extra: 1 }, '/extra'],
    ['an array body', [], ''],
    ['a scalar body', 5, ''],
    ['a null body', null, ''],
    ['nodes not an array', { nodes: { kind: 'Actor' } }, '/nodes'],
    ['edges a string', { edges: 'none' }, '/edges'],
    ['nodes null', { nodes: null }, '/nodes'],
    ['edges null', { edges: null }, '/edges'],
    ['a node not an object', { nodes: [5] }, '/nodes/0'],
    ['a node an array', { nodes: [[{ kind: 'Actor' }]] }, '/nodes/0'],
    ['a node without kind', { nodes: [{ kind: 'Actor' }, { id: 'b' }] }, '/nodes/1/kind'],
    ['a kind not a string', { nodes: [{ kind: 5 }] }, '/nodes/0/kind'],
    ['an edge null', { edges: [null] }, '/edges/0'],
    ['an edge without to', { edges: [{ type: 'OPPOSES', from: 'a' }] }, '/edges/0/to'],
    ['an edge from a number', { edges: [{ type: 'OPPOSES', from: 1, to: 'a' }] }, '/edges/0/from'],
    ['an edge type not a string', { edges: [{ type: ['OPPOSES'], from: 'a', to: 'b' }] }, '/edges/0/type'],
  ];

  /** Where transfer.ts says it refused a body, as a JSON pointer. */
  const pointerOf = (error: ValidationError): string => {
    if (error.code === 'unknown_field') return `/${error.details.field}`;
    const record = String(error.details.record);
    const field = String(error.details.field);
    if (record === 'body') return field === 'body' ? '' : `/${field}`;
    const at = record.replace(/^(\w+)\[(\d+)\]$/, '/$1/$2');
    // a record that is not an object is named by what it should be
    return field === 'node' || field === 'edge' ? at : `${at}/${field}`;
  };

  it.each(BODIES)('%s', async (_name, body, refusedAt) => {
    const schemaErrors = [...Value.Errors(GraphImportSchema, body)].map((error) => error.path);
    let refused: unknown;
    try {
      await graphWriteFromJson(body);
    } catch (error) {
      refused = error;
    }
    if (refusedAt === undefined) {
      expect(schemaErrors).toEqual([]);
      expect(refused).toBeUndefined();
      return;
    }
    expect(schemaErrors[0]).toBe(refusedAt);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(pointerOf(refused as ValidationError)).toBe(refusedAt);
  });

  it('transfer.ts refuses more than the schema says only where the schema is silent: empty names and labels that are not strings', async () => {
    for (const body of [{ nodes: [{ kind: '' }] }, { edges: [{ type: 'OPPOSES', from: '', to: 'b' }] }, { nodes: [{ kind: 'Actor', labels: 'Armed' }] }, { nodes: [{ kind: 'Actor', labels: [1] }] }]) {
      expect(Value.Check(GraphImportSchema, body), JSON.stringify(body)).toBe(true);
      await expect(graphWriteFromJson(body), JSON.stringify(body)).rejects.toMatchObject({ code: 'invalid_record' });
    }
  });
});

/** What reading `text` as a JSON body gives: the value, or the code of the typed error refusing it. */
type Outcome = { value: unknown } | { code: string };

/** The reference: JSON.parse of the whole text, then the string checks every JSON body gets. */
function reference(text: string): Outcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { code: 'malformed_json' };
  }
  try {
    checkStrings(value);
  } catch (error) {
    return { code: (error as ValidationError).code };
  }
  return { value };
}

async function framed(text: string): Promise<Outcome> {
  try {
    return { value: await parseGraphJson(text) };
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return { code: (error as ValidationError).code };
  }
}

describe('parseGraphJson, the import body read a record at a time', () => {
  it('reads the hard cases as JSON.parse does, or refuses them as malformed JSON at a position', async () => {
    const cases: [string, string][] = [
      ['brackets and braces inside strings', '{"nodes":[{"kind":"A","label":"]}[{\\"}]"},{"kind":"B","x":"[[["}],"edges":[{"type":"T","from":"}","to":"]"}]}'],
      ['escapes ending in \\\\"', '{"nodes":[{"kind":"A\\\\","label":"\\\\\\"","q":"\\\\\\\\"}],"edges":["\\\\",",\\\\"]}'],
      ['a top-level number', ' 5 '],
      ['a top-level string naming a member', '"nodes"'],
      ['a top-level null', 'null'],
      ['a top-level array of records', '[{"kind":"A"}]'],
      ['duplicate nodes members: the last wins', '{"nodes":[{"kind":"A"}],"edges":[],"nodes":[{"kind":"B"},{"kind":"C"}]}'],
      ['duplicate nodes members, the last not an array', '{"nodes":[{"kind":"A"}],"nodes":{"kind":"B"}}'],
      ['a member name written with escapes', '{"n\\u006fdes":[{"kind":"A"}]}'],
      ['huge and long numbers', '{"nodes":[{"kind":"A","big":1e400,"small":-1e-400,"long":123456789012345678901234567890,"neg":-0}]}'],
      ['records that are scalars and nested arrays', '{"nodes":[1,"two",null,[3,[4]],{"a":[{"b":{}}]}]}'],
      ['every JSON whitespace and none else', ' \t\r\n{ \t"nodes"\r\n:\n[ {"kind":"A"} ,\t{"kind":"B"}\n]\r}\n '],
    ];
    for (const [name, text] of cases) {
      const expected = reference(text);
      expect('value' in expected, name).toBe(true);
      expect(await framed(text), name).toEqual(expected);
    }
    const malformed: [string, string, number][] = [
      ['a byte order mark', '\ufeff{"nodes":[]}', 0],
      ['an unterminated string in a record', '{"nodes":[{"kind":"A}]}', 23],
      ['an escape at the very end', '{"nodes":[{"kind":"A\\', 21],
      ['an empty record', '{"nodes":[{"kind":"A"},,{"kind":"B"}]}', 23],
      ['a record closed by the wrong bracket', '{"nodes":[{"kind":["A"}]}', 22],
      ['a member without its colon, in a record', '{"nodes":[{"kind" "A"}]}', 18],
      ['two records without a comma', '{"nodes":[{"kind":"A"} {"kind":"B"}]}', 23],
      ['two members without a comma', '{"nodes":[] "edges":[]}', 12],
      ['a body not closed', '{"nodes":[]', 11],
      ['a trailing comma between members', '{"nodes":[],}', 12],
      ['a non-breaking space as whitespace', '{\u00a0"nodes":[]}', 1],
      ['text after the body', '{"nodes":[]} {}', 13],
      ['no body at all', '', 0],
    ];
    for (const [name, text, position] of malformed) {
      expect(reference(text), name).toEqual({ code: 'malformed_json' });
      await expect(parseGraphJson(text), name).rejects.toMatchObject({ code: 'malformed_json', details: { position } });
    }
  });

  // strings full of what the frame scanner looks for
  const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ':', ' ', 'a', 'é', '\n', '\u2028', '😀'), maxLength: 8 });
  const value = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tricky, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(tricky, tie('value'), { maxKeys: 4 })),
  })).value;
  const body = fc.record(
    { nodes: fc.oneof(fc.array(value, { maxLength: 5 }), value), edges: fc.array(value, { maxLength: 5 }), other: value },
    { requiredKeys: [] },
  );
  /** JSON text of `v` with JSON whitespace scattered between its tokens. */
  const spaced = (text: string, spaces: string[]) => {
    let out = '';
    let inString = false;
    let k = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      out += c;
      if (c === '"' && !(inString && isEscaped(text, i))) inString = !inString;
      else if (!inString && '{}[],:'.includes(c)) out += spaces[k++ % spaces.length];
    }
    return out;
  };

  it('says once where a record is malformed: the position in the body, and the line and column where the body has lines', async () => {
    const failure = async (text: string) => {
      try {
        await parseGraphJson(text);
      } catch (error) {
        expect(error, text).toBeInstanceOf(ValidationError);
        return error as ValidationError;
      }
      throw new Error(`parsed: ${text}`);
    };
    // JSON.parse's own position counts from the record's start: it is moved to the body's, and said once
    const oneLine = await failure('{"nodes":[{"kind":"A"},{"kind":"B","x":1 "y":2}]}');
    expect(oneLine.message).toBe("the body is not valid JSON: Expected ',' or '}' after property value at position 41");
    expect(oneLine.details).toEqual({ position: 41 });
    const lines = '{"nodes": [\n  {"kind": "A"},\n  {"kind": "B", "x": 1 "y": 2}\n],\n"edges": []}';
    const inRecord = await failure(lines);
    expect(inRecord.message).toBe("the body is not valid JSON: Expected ',' or '}' after property value at line 3, column 24 (position 52)");
    expect(inRecord.details).toEqual({ position: 52, line: 3, column: 24 });
    expect(lines.split('\n')[2][23]).toBe('"');
    // found by the frame scanner, not JSON.parse, and the end of a cut record
    expect((await failure('{"nodes": [\n  {"kind": "A"}\n  {"kind": "B"}\n]}')).details).toEqual({ position: 30, line: 3, column: 3 });
    expect((await failure('{"nodes": [\n  {"kind": "A"},\n  {"kind": ')).message).toBe('the body is not valid JSON: Unexpected end of JSON input at line 3, column 12 (position 40)');
    // a JSON Lines body: the line and the column in it
    const jsonLines = '{"node": {"kind": "A"}}\n\n{"node": {"kind" "B"}}\n';
    await expect(graphWriteFromJsonLines(jsonLines)).rejects.toMatchObject({
      code: 'invalid_json_line',
      message: "line 3, column 18: not valid JSON (Expected ':' after property name)",
      details: { line: 3, column: 18 },
    });
  });

  it('reads any import-shaped JSON text as JSON.parse does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, value), fc.array(fc.constantFrom('', ' ', '\n', '\t\r\n '), { minLength: 1, maxLength: 5 }), async (v, spaces) => {
        const text = spaced(JSON.stringify(v), spaces);
        expect(await framed(text)).toEqual(reference(text));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses any text JSON.parse refuses, and reads the rest alike: import bodies cut, and with a character dropped or added', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.nat(), fc.constantFrom('cut', 'drop', 'add'), fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ':', '1', ' '), async (v, at, edit, c) => {
        const text = JSON.stringify(v);
        const i = at % (text.length + 1);
        const broken = edit === 'cut' ? text.slice(0, i) : edit === 'drop' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + c + text.slice(i);
        expect(await framed(broken)).toEqual(reference(broken));
      }),
      { numRuns: 1000 },
    );
  });
});

/** Whether the quote at `i` is escaped: preceded by an odd number of backslashes. */
function isEscaped(text: string, i: number): boolean {
  let backslashes = 0;
  for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) backslashes++;
  return backslashes % 2 === 1;
}
