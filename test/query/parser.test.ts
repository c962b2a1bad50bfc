import { EmbeddedActionsParser } from 'chevrotain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueryError } from '../../engine/errors.ts';
import { parseQuery, runQuery } from '../../engine/query/index.ts';
import { validateGrammar } from '../../engine/query/parser.ts';
import { conflictGraph } from './fixtures.ts';

function syntaxErrorOf(text: string): QueryError {
  try {
    parseQuery(text);
  } catch (error) {
    expect(error, text).toBeInstanceOf(QueryError);
    return error as QueryError;
  }
  throw new Error(`parsed: ${text}`);
}

describe('parser', () => {
  it("passes chevrotain's grammar checks, which the parser built at start-up skips", () => {
    expect(() => validateGrammar()).not.toThrow();
  });

  it('parses the RedLine query into clauses and patterns', () => {
    const ast = parseQuery("MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE c.type = 'RedLine' RETURN a, c");
    const [match, ret] = ast.parts[0].clauses;
    expect(match.kind).toBe('match');
    if (match.kind !== 'match' || ret.kind !== 'return') throw new Error('unexpected clauses');
    expect(match.patterns[0].nodes.map((node) => node.labels)).toEqual([['Actor'], ['Claim']]);
    expect(match.patterns[0].relationships[0]).toMatchObject({ types: ['ASSERTS'], direction: 'out' });
    expect(ret.projection.items.map((item) => item.text)).toEqual(['a', 'c']);
  });

  it('takes keywords in any case, as names where openCypher allows them', () => {
    const ast = parseQuery('match (count:Match {return: 1})<-[:WHERE|limit*1..3]-(b) return count.return AS `order`');
    const match = ast.parts[0].clauses[0];
    if (match.kind !== 'match') throw new Error('expected MATCH');
    expect(match.patterns[0].nodes[0]).toMatchObject({ variable: 'count', labels: ['Match'] });
    expect(match.patterns[0].relationships[0]).toMatchObject({ types: ['WHERE', 'limit'], direction: 'in', range: { min: 1, max: 3 } });
  });

  it('reports line, column and what was expected', () => {
    try {
      parseQuery('MATCH (a:Actor)\nRETURN a,');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(QueryError);
      const queryError = error as QueryError;
      expect(queryError.line).toBe(2);
      expect(queryError.column).toBe(10);
      expect(queryError.details.expected).toBe('an expression');
    }
    try {
      parseQuery('MATCH (a:Actor) RETRUN a');
      expect.unreachable();
    } catch (error) {
      expect((error as QueryError).column).toBe(17);
      expect((error as QueryError).details.suggestions).toEqual(['RETURN']);
      expect((error as QueryError).message).toMatch(/found 'RETRUN' \(did you mean RETURN\?\)$/);
    }
  });

  it('names the position and the next tokens of a syntax error deep in a long query, from either kind of failure', () => {
    const syntaxError = (text: string) => {
      try {
        parseQuery(text);
      } catch (error) {
        expect(error).toBeInstanceOf(QueryError);
        return error as QueryError;
      }
      throw new Error(`parsed: ${text}`);
    };
    // thousands of characters of nested expressions, then a keyword where an operand belongs (no viable alternative)
    const operands = Array.from({ length: 400 }, (_, i) => `CASE WHEN x${i} > ${i} THEN [y IN $list WHERE y IS NOT NULL | y] ELSE ${i} END`).join(' +\n ');
    const broken = `WITH 1 AS x0\nRETURN ${operands} + END`;
    const error = syntaxError(broken);
    const lines = broken.split('\n');
    expect(error.line).toBe(lines.length);
    expect(error.column).toBe(lines[lines.length - 1].lastIndexOf('END') + 1);
    expect(error.details).toMatchObject({ found: "'END'" });
    expect(error.details.expected).toBe('an expression');
    // the same failure again reads the same (what comes next is remembered per grammar point)
    expect(syntaxError(broken).message).toBe(error.message);
    // a mandatory repetition that never starts (early exit): CASE without a WHEN
    const early = syntaxError('RETURN 1 AS a,\n CASE 1 END');
    expect(early).toMatchObject({ line: 2, column: 9 });
    expect(early.details).toMatchObject({ expected: 'WHEN', found: "'END'" });
  });

  it('names what it expected, where, and what it found, for each kind of syntax error (the parser replaces chevrotain internals: an upgrade that moves them fails here)', () => {
    // every token an operand may start with, one token deep (chevrotain's own raise lists sequences up to 4 deep), in a word
    const OPERAND = 'an expression';
    const cases: [string, number, number, string, string][] = [
      // no viable alternative (raiseNoAltException)
      ['MATCH (a)\nWHERE a.x = \nRETURN a', 3, 1, OPERAND, "'RETURN'"],
      ['MATCH (a {label: })\nRETURN a', 1, 18, OPERAND, "'}'"],
      ['RETURN [x IN range(1, 3) WHERE | x]', 1, 32, OPERAND, "'|'"],
      ['WITH 1 AS x\n\n  RETURN x +', 3, 13, OPERAND, 'end of input'],
      // a token that is not the one the grammar requires there
      ['MATCH (a)-[r:ASSERTS->(c) RETURN c', 1, 21, "']' to close the '[' at line 1, column 11", "'-'"],
      ['UNWIND [1, 2 AS x RETURN x', 1, 14, "']' to close the '[' at line 1, column 8", "'AS'"],
      ['MATCH (a) RETURN a ORDER a.x', 1, 26, 'BY', "'a'"],
      ['MATCH (a) WHERE a.x STARTS 1 RETURN a', 1, 28, 'WITH', "'1'"],
      // a mandatory repetition that never starts (raiseEarlyExitException)
      ['RETURN 1 AS a,\n CASE 1 END', 2, 9, 'WHEN', "'END'"],
    ];
    for (const [query, line, column, expected, found] of cases) {
      let caught: unknown;
      try {
        parseQuery(query);
      } catch (error) {
        caught = error;
      }
      expect(caught, query).toBeInstanceOf(QueryError);
      expect(caught, query).toMatchObject({ code: 'unexpected_syntax', line, column, details: { expected, found } });
    }
    // the recognizer methods parser.ts replaces or calls through its untyped cast are still there to replace and call
    const recognizer = EmbeddedActionsParser.prototype as unknown as Record<string, unknown>;
    for (const name of ['raiseNoAltException', 'raiseEarlyExitException', 'SAVE_ERROR', 'getGAstProductions', 'getCurrRuleFullName', 'LA']) expect(typeof recognizer[name], name).toBe('function');
  });

  it('says "did you mean" for a misspelt keyword wherever it is allowed, at the misspelling\'s line and column', () => {
    const cases: [string, number, number, string, string[]][] = [
      ['MACTH (a:Actor)\nRETURN a', 1, 1, "'MACTH'", ['MATCH']],
      ['OPTIONL MATCH (a) RETURN a', 1, 1, "'OPTIONL'", ['OPTIONAL MATCH']],
      ['MATCH (a:Actor)\nWHRE a.name = $name\nRETURN a', 2, 1, "'WHRE'", ['WHERE']],
      ['MATCH (a:Actor)\nWHERE a.name = $name\nRETRUN a', 3, 1, "'RETRUN'", ['RETURN']],
      ['MATCH (a)\nRETURN a.name AS name\n  ODER BY name', 3, 3, "'ODER'", ['ORDER BY']],
      ['MATCH (a)\nRETURN a.name AS name\nORDER BT name', 3, 7, "'BT'", ['BY']],
      ['MATCH (a)\nRETURN a.name AS name\nORDER BY name DESC\nLIMT 5', 4, 1, "'LIMT'", ['LIMIT']],
      ['MATCH (a) WHERE a.x = 1 AN a.y = 2 RETURN a', 1, 25, "'AN'", ['AND']],
      ['MATCH (a) WIHT a RETURN a', 1, 11, "'WIHT'", ['WITH']],
      ['MATCH (a) RETURN a UNOIN MATCH (b) RETURN b', 1, 20, "'UNOIN'", ['UNION']],
    ];
    for (const [query, line, column, found, suggestions] of cases) {
      const error = syntaxErrorOf(query);
      expect(error, query).toMatchObject({ code: 'unexpected_syntax', line, column, details: { found, suggestions } });
      expect(error.message, query).toContain(`found ${found} (did you mean ${suggestions[0]}?)`);
    }
    // a misspelt keyword read as a name fails one token later: the suggestion names it and where it is
    const distinct = syntaxErrorOf('MATCH (a)\nRETURN DISTINT\n  a.name');
    expect(distinct).toMatchObject({ line: 3, column: 3, details: { found: "'a'", suggestions: ['DISTINCT'], misspelt: { line: 2, column: 8 } } });
    expect(distinct.message).toContain("found 'a' (did you mean DISTINCT for 'DISTINT' at line 2, column 8?)");
    expect(syntaxErrorOf('MATCH (a) WHERE NTO a.x RETURN a').details).toMatchObject({ suggestions: ['NOT'], misspelt: { line: 1, column: 17 } });
    // but not a name that is one: `node` is one edit from NONE, which is a name too where it would go
    expect(syntaxErrorOf('MATCH (node) RETURN node x').details.suggestions).toBeUndefined();
    // no suggestion for a name nowhere near an allowed keyword, nor a short name a keyword could be rewritten into
    for (const query of ['MATCH (a) RETURN a ORDER a.x', 'MATCH (a) RETURN a a', 'MATCH (a) RETURN a WHEN']) expect(syntaxErrorOf(query).details.suggestions, query).toBeUndefined();
    // a keyword the grammar does not allow there is not suggested: only WHERE or a clause may follow this pattern
    expect(syntaxErrorOf('MATCH (a) ORDR BY a').details.suggestions).toBeUndefined();
  });

  it('puts what may come next in words: an expression, an operator, a clause, a name, and what follows a whole query', () => {
    const CLAUSE = 'a clause (MATCH, OPTIONAL MATCH, UNWIND, WITH, RETURN)';
    const cases: [string, number, number, string, string][] = [
      ['MATCH (a) RETURN', 1, 17, "'*' or an expression", 'end of input'],
      ['MATCH (a) RETURN a.', 1, 20, 'a name', 'end of input'],
      ['MATCH (a) RETURN a 2', 1, 20, `an operator, AS, ',', ORDER BY, SKIP, LIMIT, ${CLAUSE}, UNION, ';' or end of input`, "'2'"],
      ['MATCH (a)\nWHERE a.x = 1\n  (b)', 3, 3, `an operator, ${CLAUSE}, UNION, ';' or end of input`, "'('"],
      ['MATCH (a) RETURN a ORDER BY a.x 3', 1, 33, `an operator, ASCENDING, ASC, DESCENDING, DESC, ',', SKIP, LIMIT, ${CLAUSE}, UNION, ';' or end of input`, "'3'"],
      ["MATCH (a) b", 1, 11, `a relationship ('-' or '<-'), ',', WHERE, ${CLAUSE}, UNION, ';' or end of input`, "'b'"],
      ['MATCH (a) RETURN a; RETURN 1', 1, 21, 'end of input', "'RETURN'"],
      ['', 1, 1, CLAUSE, 'end of input'],
      ['MATCH (a) WHERE a.x STARTS 1 RETURN a', 1, 28, 'WITH', "'1'"],
    ];
    for (const [query, line, column, expected, found] of cases) {
      const error = syntaxErrorOf(query);
      expect(error, query).toMatchObject({ line, column, details: { expected, found } });
      expect(error.message, query).toBe(`syntax error at line ${line}, column ${column}: expected ${expected}, found ${found}`);
    }
    // past MAX_CONTENT_ASSIST_TOKENS tokens of one clause, what follows any clause, and where the clause began
    const long = `MATCH (a)\nRETURN ${Array.from({ length: 40 }, (_, i) => `a.p${i}`).join(' + ')} 2`;
    expect(syntaxErrorOf(long).details.expected).toBe(`more of the RETURN clause at line 2, column 1, ${CLAUSE}, UNION, ';' or end of input`);
  });

  it('names the bracket an unclosed one opened and the quote of an unclosed string, lines away', () => {
    const cases: [string, number, number, string, string][] = [
      ['MATCH (a:Actor', 1, 15, "')' to close the '(' at line 1, column 7", 'end of input'],
      ['MATCH (a)\nWHERE (a.x = 1\n   OR a.y = 2\nRETURN a', 4, 1, "')' to close the '(' at line 2, column 7", "'RETURN'"],
      ['RETURN [1, [2, 3], {k: (4)}', 1, 28, "']' to close the '[' at line 1, column 8", 'end of input'],
      ['RETURN {k: [1]', 1, 15, "'}' to close the '{' at line 1, column 8", 'end of input'],
      ['RETURN CASE WHEN true THEN 1\nELSE 2', 2, 7, 'END to close the CASE at line 1, column 8', 'end of input'],
    ];
    for (const [query, line, column, expected, found] of cases) expect(syntaxErrorOf(query), query).toMatchObject({ code: 'unexpected_syntax', line, column, details: { expected, found } });
    const unclosed: [string, number, number, string][] = [
      ["MATCH (a)\nWHERE a.name = 'Hezbollah\nRETURN a", 2, 16, "the string opened at line 2, column 16 is never closed: expected a closing '"],
      ['RETURN "a\\"', 1, 8, 'the string opened at line 1, column 8 is never closed: expected a closing "'],
      ['MATCH (a) RETURN a.`odd name', 1, 20, 'the name in backquotes opened at line 1, column 20 is never closed: expected a closing `'],
      // without its own token, '/*' lexed as '/' '*' and the error was a stray '*'; a quote inside does not open a string
      ["MATCH (a)\n  /* a's name RETURN a", 2, 3, 'the comment opened at line 2, column 3 is never closed: expected a closing */'],
      ['RETURN 1 // a line comment\n/* and /* a block', 2, 1, 'the comment opened at line 2, column 1 is never closed: expected a closing */'],
    ];
    for (const [query, line, column, message] of unclosed) {
      const error = syntaxErrorOf(query);
      expect(error, query).toMatchObject({ code: 'unexpected_character', line, column, message, details: { tck_type: 'SyntaxError', found: 'end of input' } });
    }
    // closed, a comment may hold anything, '/*' and quotes included
    expect(parseQuery("MATCH (a) /* a's /* */ RETURN a /**/").parts[0].clauses).toHaveLength(2);
  });

  it('refuses a regular expression that does not compile with a typed error (found by the million-query fuzz run: a 500)', () => {
    const graph = conflictGraph();
    expect(() => runQuery(graph, "RETURN 'abc' =~ '(_S' AS m")).toThrow(QueryError);
    try {
      runQuery(graph, "RETURN 'abc' =~ '(_S' AS m");
    } catch (error) {
      expect((error as QueryError).code).toBe('invalid_regular_expression');
    }
    expect(runQuery(graph, "RETURN 'abc' =~ 'a.c' AS m").rows).toEqual([[true]]);
  });

  it('matches =~ in linear time: a catastrophically backtracking pattern answers at once, what needs backtracking is refused', () => {
    const graph = conflictGraph();
    // on a backtracking engine this is 2^40 steps: the test would not finish
    const subject = 'a'.repeat(40) + 'b';
    expect(runQuery(graph, `RETURN '${subject}' =~ '(a+)+' AS m, '${subject}' =~ '(a+)+b' AS n`).rows).toEqual([[false, true]]);
    expect(runQuery(graph, "RETURN 'Goma' =~ '(?:G|g)o.a' AS m").rows).toEqual([[true]]);
    for (const pattern of ['(a)\\\\1', '(?<=a)b', '\\\\p{L}+']) {
      let caught: unknown;
      try {
        runQuery(graph, `RETURN 'aa' =~ '${pattern}' AS m`);
      } catch (error) {
        caught = error;
      }
      expect(caught, pattern).toBeInstanceOf(QueryError);
      expect((caught as QueryError).code).toBe('invalid_regular_expression');
    }
  });

  it('refuses write clauses where they start', () => {
    expect(() => parseQuery("MATCH (a) SET a.x = 1 RETURN a")).toThrow(/read-only/);
    expect(() => runQuery(conflictGraph(), 'CREATE (n:Actor) RETURN n')).toThrow(/read-only/);
    try {
      parseQuery('MATCH (a)\n  DETACH DELETE a');
    } catch (error) {
      expect((error as QueryError).line).toBe(2);
      expect((error as QueryError).column).toBe(3);
      expect((error as QueryError).code).toBe('read_only_query');
    }
  });
});

const FRAGMENTS = [
  'MATCH', 'OPTIONAL', 'WHERE', 'RETURN', 'WITH', 'UNWIND', 'AS', 'ORDER BY', 'SKIP', 'LIMIT', 'DISTINCT', '(', ')', '[', ']',
  '{', '}', '-', '->', '<-', ':', '|', '*', '..', ',', '.', '=', '<>', 'AND', 'OR', 'NOT', 'IN', 'IS NULL', 'count(*)', 'a', 'b',
  'Actor', "'x'", '1', '2.5', '$p', 'CASE', 'WHEN', 'THEN', 'END', 'STARTS WITH', '`q`', '"', '/*', '\n',
];

const SEEDS = [
  "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE c.type = 'RedLine' RETURN a, c",
  'MATCH (a)-[r:ALLIED_WITH*1..3]-(b) RETURN DISTINCT a.label AS x, count(b) ORDER BY x DESC SKIP 1 LIMIT 2',
  'UNWIND [1, 2, 3] AS x WITH x WHERE x > 1 RETURN collect(x), {k: [x IN [1] | x]}',
];

function expectOnlyQueryErrors(text: string): void {
  try {
    runQuery(conflictGraph(), text, { parameters: { p: 1 }, limits: { timeLimitMs: 500 } });
  } catch (error) {
    if (!(error instanceof QueryError) && (error as { kind?: string }).kind !== 'limit' && (error as { kind?: string }).kind !== 'validation') throw error;
  }
}

describe('aggregate arity', () => {
  it('refuses an aggregate called with the wrong number of arguments, before any row (found by the fuzz suite: collect() crashed the size estimate)', () => {
    for (const [query, column] of [['UNWIND [1] AS x RETURN collect()', 24], ['UNWIND [1] AS x RETURN sum(x, x)', 24], ['UNWIND [1] AS x RETURN percentileDisc(x)', 24]] as const) {
      expect(() => runQuery(conflictGraph(), query), query).toThrow(expect.objectContaining({ code: 'invalid_number_of_arguments', line: 1, column }));
    }
    expect(runQuery(conflictGraph(), 'UNWIND [1, 2] AS x RETURN count(*), collect(x), percentileDisc(x, 0.5)').rows).toEqual([[2n, [1n, 2n], 1n]]);
  });
});

describe('parser and engine under random input', () => {
  it('never throws anything but a typed error on token soup', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }), (parts) => expectOnlyQueryErrors(parts.join(' '))),
      { numRuns: 400 },
    );
  });

  it('never throws anything but a typed error on mutated valid queries', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), fc.nat(), fc.nat(), fc.string({ maxLength: 4 }), (seed, at, length, insert) => {
        const start = at % (seed.length + 1);
        const mutated = seed.slice(0, start) + insert + seed.slice(start + (length % 5));
        expectOnlyQueryErrors(mutated);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws anything but a typed error on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (text) => expectOnlyQueryErrors(text)), { numRuns: 300 });
  });
});
