/**
 * Syntax errors a person writing a query by hand can act on: where (line and column
 * of the token at fault, or of the end of the input), what was found, what the
 * grammar allows there in words ("an expression", "an operator", "a clause (MATCH,
 * …)") rather than a list of token names, the bracket an expected closer would
 * close, and "did you mean RETURN?" for a name one or two edits from a keyword
 * allowed there.
 */
import type { IToken, TokenType } from 'chevrotain';
import { QueryError } from '../errors.ts';
import * as T from './lexer.ts';

/** First tokens of grammar rules, computed from the parser (so they follow the grammar). */
export interface RuleStarts {
  /** What an operand starts with (literal, parameter, name, '(', '[', '{', CASE, …). */
  atom: Set<TokenType>;
  /** The above and the prefix operators (NOT, unary + and -). */
  expression: Set<TokenType>;
  /** The clause keywords. */
  clause: Set<TokenType>;
}

const BINARY_OPERATORS = new Set<TokenType>([
  T.Or, T.Xor, T.And, T.Equals, T.NotEquals, T.Less, T.Greater, T.LessEquals, T.GreaterEquals, T.RegexMatch,
  T.Starts, T.Ends, T.Contains, T.In, T.Is, T.Plus, T.Minus, T.Star, T.Slash, T.Percent, T.Caret,
]);
/** What may follow an operand besides a binary operator: property, index or slice, label test, call. */
const POSTFIX = new Set<TokenType>([T.Dot, T.LBracket, T.Colon, T.LParen]);
const NAMES = new Set<TokenType>([T.Identifier, T.EscapedIdentifier, T.SoftKeyword, T.Keyword]);
const NUMBERS = new Set<TokenType>([T.FloatLiteral, T.DecimalInteger, T.HexInteger, T.OctalInteger]);
const CLAUSE_LABEL = 'a clause (MATCH, OPTIONAL MATCH, UNWIND, WITH, RETURN)';
/** Keywords that only ever start a two-word form. */
const TWO_WORDS = new Map<TokenType, string>([[T.Order, 'ORDER BY'], [T.Starts, 'STARTS WITH'], [T.Ends, 'ENDS WITH'], [T.Optional, 'OPTIONAL MATCH']]);
const CLOSER_OF = new Map<TokenType, TokenType>([[T.LParen, T.RParen], [T.LBracket, T.RBracket], [T.LBrace, T.RBrace], [T.Case, T.End]]);
export const OPENERS = new Set(CLOSER_OF.keys());
export const CLOSERS = new Set(CLOSER_OF.values());

function isKeyword(type: TokenType): boolean {
  return type.CATEGORIES?.includes(T.Keyword) ?? false;
}

/** How a token type reads in a message. */
function label(type: TokenType): string {
  if (NAMES.has(type)) return 'a name';
  if (NUMBERS.has(type)) return 'a number';
  if (type === T.StringLiteral) return 'a string';
  if (type === T.Parameter) return 'a parameter';
  if (type === T.EOF_TOKEN) return 'end of input';
  if (isKeyword(type)) return TWO_WORDS.get(type) ?? type.name;
  if (type === T.Minus) return "'-'";
  // punctuation: the characters themselves (NotEquals has two spellings, the first is openCypher's)
  const source = (type.PATTERN as RegExp).source.replace(/\\/g, '').split('|')[0];
  return `'${source}'`;
}

/** "a, b or c" */
function either(labels: string[]): string {
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
}

/**
 * The expected token types in words, in the grammar's order: a whole class where all
 * of it is allowed (every operand start is "an expression", every binary operator
 * "an operator", every clause keyword "a clause"), the tokens themselves otherwise.
 */
function describe(types: readonly TokenType[], starts: RuleStarts): string[] {
  const allowed = new Set(types);
  const covers = (group: Set<TokenType>) => [...group].every((type) => allowed.has(type));
  const expression = covers(starts.atom);
  const operator = covers(BINARY_OPERATORS);
  const clause = covers(starts.clause);
  // where they are not operators, '-' and '<' go on a pattern
  const relationship = !operator && allowed.has(T.Minus) && allowed.has(T.Less);
  const labels: string[] = [];
  for (const type of types) {
    let text: string;
    if (expression && starts.expression.has(type)) text = 'an expression';
    else if (operator && (BINARY_OPERATORS.has(type) || POSTFIX.has(type))) text = 'an operator';
    else if (relationship && (type === T.Minus || type === T.Less)) text = "a relationship ('-' or '<-')";
    else if (clause && starts.clause.has(type)) text = CLAUSE_LABEL;
    else text = label(type);
    if (!labels.includes(text)) labels.push(text);
  }
  return labels;
}

/** Edits (insert, delete, replace, swap two neighbours) between two words: RETRUN is one from RETURN. */
function spellingDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, k) => (i === 0 ? k : k === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let k = 1; k <= b.length; k++) {
      const cost = a[i - 1] === b[k - 1] ? 0 : 1;
      rows[i][k] = Math.min(rows[i - 1][k] + 1, rows[i][k - 1] + 1, rows[i - 1][k - 1] + cost);
      if (i > 1 && k > 1 && a[i - 1] === b[k - 2] && a[i - 2] === b[k - 1]) rows[i][k] = Math.min(rows[i][k], rows[i - 2][k - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The allowed keywords a name found where none fits is a misspelling of: one edit from
 * a keyword of up to four letters, two from a longer one, and never a name of one or
 * two letters wholly rewritten (`n` is not a misspelt `IN`). The nearest win.
 */
function suggestions(found: IToken, types: readonly TokenType[]): string[] {
  if (found.tokenType !== T.Identifier || found.image.length < 2) return [];
  const word = found.image.toUpperCase();
  let best = Infinity;
  let nearest: string[] = [];
  for (const type of types) {
    if (!isKeyword(type)) continue;
    const distance = spellingDistance(word, type.name);
    if (distance > (type.name.length <= 4 ? 1 : 2) || distance >= word.length || distance > best) continue;
    const text = TWO_WORDS.get(type) ?? type.name;
    if (distance < best) [best, nearest] = [distance, []];
    if (!nearest.includes(text)) nearest.push(text);
  }
  // of equally near ones, those that start with the same letter ('AN': AND before IN)
  const sameStart = nearest.filter((text) => text[0] === word[0]);
  return sameStart.length > 0 ? sameStart : nearest;
}

/** The innermost bracket (or CASE) before `index` that is still open, if it is one `closer` closes. */
function openedBy(tokens: readonly IToken[], index: number, closer: TokenType): IToken | undefined {
  const open: IToken[] = [];
  for (let i = 0; i < index; i++) {
    const type = tokens[i].tokenType;
    if (OPENERS.has(type)) open.push(tokens[i]);
    else if (CLOSERS.has(type) && open.length > 0 && CLOSER_OF.get(open[open.length - 1].tokenType) === type) open.pop();
  }
  const innermost = open[open.length - 1];
  return innermost && CLOSER_OF.get(innermost.tokenType) === closer ? innermost : undefined;
}

function where(token: IToken): string {
  return `line ${token.startLine}, column ${token.startColumn}`;
}

/**
 * The error for a parse that stopped at `tokens[index]` (index = tokens.length: the end
 * of the input) where the grammar allows `expected` (undefined: it cannot be told).
 * `rest` names what else may come, already in words.
 */
export function syntaxError(
  tokens: IToken[],
  index: number,
  expected: readonly TokenType[],
  starts: RuleStarts,
  { rest = [], allowedAt }: { rest?: string[]; allowedAt?: (tokens: IToken[], index: number) => TokenType[] | undefined } = {},
): QueryError {
  const atEnd = index >= tokens.length;
  const found = tokens[index];
  const last = tokens[tokens.length - 1];
  const line = atEnd ? (last?.endLine ?? 1) : (found.startLine ?? 1);
  const column = atEnd ? (last ? (last.endColumn ?? 0) + 1 : 1) : (found.startColumn ?? 1);
  const labels = [...rest, ...describe(expected, starts)];
  // a missing closer: say which bracket it closes, since that is usually lines away
  if (expected.length === 1 && CLOSERS.has(expected[0])) {
    const opener = openedBy(tokens, index, expected[0]);
    if (opener) labels[0] = `${labels[0]} to close the ${opener.tokenType === T.Case ? 'CASE' : `'${opener.image}'`} at ${where(opener)}`;
  }
  const description = labels.length > 0 ? either(labels) : 'a different token';
  const foundText = atEnd ? 'end of input' : `'${found.image}'`;
  let meant = atEnd ? [] : suggestions(found, expected);
  let hint = meant.length > 0 ? ` (did you mean ${either(meant)}?)` : '';
  let misspelt: { line: number; column: number } | undefined;
  // a misspelt keyword that is a name too (RETURN DISTINT n) fails only at the token after it
  const previous = tokens[index - 1];
  if (meant.length === 0 && previous?.tokenType === T.Identifier && allowedAt) {
    meant = suggestions(previous, (allowedAt(tokens, index - 1) ?? []).filter((type) => !type.CATEGORIES?.includes(T.SoftKeyword)));
    misspelt = { line: previous.startLine ?? 1, column: previous.startColumn ?? 1 };
    if (meant.length > 0) hint = ` (did you mean ${either(meant)} for '${previous.image}' at ${where(previous)}?)`;
  }
  return QueryError.tck('SyntaxError', 'UnexpectedSyntax', `syntax error at line ${line}, column ${column}: expected ${description}, found ${foundText}${hint}`, { line, column }, {
    expected: description,
    found: foundText,
    ...(meant.length > 0 ? { suggestions: meant, ...(misspelt ? { misspelt } : {}) } : {}),
    phase: 'compile',
  });
}
