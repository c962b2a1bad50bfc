/**
 * Tokens of the pattern language (Chevrotain 11). Keywords are case-insensitive
 * and fall back to identifiers through `longer_alt`; every keyword belongs to the
 * `Keyword` category so that the parser can accept any of them where openCypher's
 * SchemaName allows reserved words (labels, relationship types, property keys).
 */
import { createToken, EOF, Lexer, type TokenType } from 'chevrotain';
import { QueryError } from '../errors.ts';

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/ });
export const EscapedIdentifier = createToken({ name: 'EscapedIdentifier', pattern: /`(?:[^`]|``)*`/ });
export const Keyword = createToken({ name: 'Keyword', pattern: Lexer.NA });
/** Keywords that openCypher's SymbolicName also accepts as variable and function names. */
export const SoftKeyword = createToken({ name: 'SoftKeyword', pattern: Lexer.NA });

function keyword(word: string, soft = false): TokenType {
  const pattern = new RegExp(word.replace(/ /g, '\\s+') + '(?![A-Za-z0-9_])', 'i');
  return createToken({
    name: word.toUpperCase().replace(/ /g, '_'),
    pattern,
    longer_alt: Identifier,
    categories: soft ? [Keyword, SoftKeyword] : [Keyword],
  });
}

export const Optional = keyword('OPTIONAL');
export const Match = keyword('MATCH');
export const Unwind = keyword('UNWIND');
export const With = keyword('WITH');
export const Return = keyword('RETURN');
export const Create = keyword('CREATE');
export const Merge = keyword('MERGE');
export const Set = keyword('SET');
export const Detach = keyword('DETACH');
export const Delete = keyword('DELETE');
export const Remove = keyword('REMOVE');
export const Union = keyword('UNION');
export const All = keyword('ALL', true);
export const Any = keyword('ANY', true);
export const None = keyword('NONE', true);
export const Single = keyword('SINGLE', true);
export const Count = keyword('COUNT', true);
export const Exists = keyword('EXISTS', true);
export const Where = keyword('WHERE');
export const Distinct = keyword('DISTINCT');
export const As = keyword('AS');
export const Order = keyword('ORDER');
export const By = keyword('BY');
export const Ascending = keyword('ASCENDING');
export const Asc = keyword('ASC');
export const Descending = keyword('DESCENDING');
export const Desc = keyword('DESC');
export const Skip = keyword('SKIP');
export const Limit = keyword('LIMIT');
export const Or = keyword('OR');
export const Xor = keyword('XOR');
export const And = keyword('AND');
export const Not = keyword('NOT');
export const In = keyword('IN');
export const Starts = keyword('STARTS');
export const Ends = keyword('ENDS');
export const Contains = keyword('CONTAINS');
export const Is = keyword('IS');
export const Null = keyword('NULL');
export const True = keyword('TRUE');
export const False = keyword('FALSE');
export const Case = keyword('CASE');
export const When = keyword('WHEN');
export const Then = keyword('THEN');
export const Else = keyword('ELSE');
export const End = keyword('END');
export const Call = keyword('CALL');
export const Yield = keyword('YIELD');
export const On = keyword('ON');

export const StringLiteral = createToken({
  name: 'StringLiteral',
  pattern: /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/,
});
export const FloatLiteral = createToken({
  name: 'FloatLiteral',
  pattern: /(?:\d+\.\d+(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)/,
});
export const HexInteger = createToken({ name: 'HexInteger', pattern: /0x[0-9A-Fa-f]+/ });
export const OctalInteger = createToken({ name: 'OctalInteger', pattern: /0o[0-7]+/ });
export const DecimalInteger = createToken({ name: 'DecimalInteger', pattern: /\d+/ });
export const Parameter = createToken({ name: 'Parameter', pattern: /\$(?:[A-Za-z_][A-Za-z0-9_]*|\d+|`(?:[^`]|``)*`)/ });

export const LParen = createToken({ name: 'LParen', pattern: /\(/ });
export const RParen = createToken({ name: 'RParen', pattern: /\)/ });
export const LBracket = createToken({ name: 'LBracket', pattern: /\[/ });
export const RBracket = createToken({ name: 'RBracket', pattern: /\]/ });
export const LBrace = createToken({ name: 'LBrace', pattern: /\{/ });
export const RBrace = createToken({ name: 'RBrace', pattern: /\}/ });
export const Comma = createToken({ name: 'Comma', pattern: /,/ });
export const DotDot = createToken({ name: 'DotDot', pattern: /\.\./ });
export const Dot = createToken({ name: 'Dot', pattern: /\./ });
export const Colon = createToken({ name: 'Colon', pattern: /:/ });
export const Pipe = createToken({ name: 'Pipe', pattern: /\|/ });
export const Semicolon = createToken({ name: 'Semicolon', pattern: /;/ });
export const RegexMatch = createToken({ name: 'RegexMatch', pattern: /=~/ });
export const PlusEquals = createToken({ name: 'PlusEquals', pattern: /\+=/ });
export const NotEquals = createToken({ name: 'NotEquals', pattern: /<>|!=/ });
export const LessEquals = createToken({ name: 'LessEquals', pattern: /<=/ });
export const GreaterEquals = createToken({ name: 'GreaterEquals', pattern: />=/ });
export const Equals = createToken({ name: 'Equals', pattern: /=/ });
export const Less = createToken({ name: 'Less', pattern: /</ });
export const Greater = createToken({ name: 'Greater', pattern: />/ });
/** Hyphen and the dash-like characters openCypher's grammar accepts in arrows. */
export const Minus = createToken({ name: 'Minus', pattern: /[-\u00AD\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/ });
export const Plus = createToken({ name: 'Plus', pattern: /\+/ });
export const Star = createToken({ name: 'Star', pattern: /\*/ });
export const Slash = createToken({ name: 'Slash', pattern: /\// });
export const Percent = createToken({ name: 'Percent', pattern: /%/ });
export const Caret = createToken({ name: 'Caret', pattern: /\^/ });

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /\s+/, group: Lexer.SKIPPED });
export const LineComment = createToken({ name: 'LineComment', pattern: /\/\/[^\n\r]*/, group: Lexer.SKIPPED });
export const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[\s\S]*?\*\//, group: Lexer.SKIPPED });
/**
 * A `/*` that BlockComment could not match runs to the end of the input. Lexed as one
 * token so that tokenize can say where it opened; otherwise it would lex as '/' '*' and
 * the parser would report a stray '*'.
 */
const UnclosedComment = createToken({ name: 'UnclosedComment', pattern: /\/\*[\s\S]*/ });

const KEYWORDS = [
  Optional, Match, Unwind, With, Return, Create, Merge, Set, Detach, Delete, Remove, Union, All, Any, None, Single,
  Count, Exists, Where, Distinct, As, Order, By, Ascending, Asc, Descending, Desc, Skip, Limit, Or, Xor, And, Not,
  In, Starts, Ends, Contains, Is, Null, True, False, Case, When, Then, Else, End, Call, Yield, On,
];

export const ALL_TOKENS: TokenType[] = [
  WhiteSpace, LineComment, BlockComment, UnclosedComment,
  StringLiteral, FloatLiteral, HexInteger, OctalInteger, DecimalInteger, Parameter,
  Keyword, SoftKeyword, ...KEYWORDS, Identifier, EscapedIdentifier,
  LParen, RParen, LBracket, RBracket, LBrace, RBrace, Comma, DotDot, Dot, Colon, Pipe, Semicolon,
  RegexMatch, PlusEquals, NotEquals, LessEquals, GreaterEquals, Equals, Less, Greater, Minus, Plus, Star, Slash,
  Percent, Caret,
];

export const queryLexer = new Lexer(ALL_TOKENS, { positionTracking: 'full', ensureOptimizations: false });

const QUOTES: Record<string, string> = { "'": 'string', '"': 'string', '`': 'name in backquotes' };

export function tokenize(text: string) {
  const result = queryLexer.tokenize(text);
  // a lexer error always lies before an unclosed comment, which runs to the end
  if (result.errors.length > 0) {
    const error = result.errors[0];
    const character = text.slice(error.offset, error.offset + error.length).slice(0, 20);
    // a quote the lexer cannot match opens a string (or a name in backquotes) that is never closed
    const quote = QUOTES[text[error.offset]];
    if (quote) throw neverClosed(quote, text[error.offset], error.line ?? 1, error.column ?? 1);
    throw new QueryError('unexpected_character', `unexpected character '${character}' at line ${error.line}, column ${error.column}`, error.line ?? 1, error.column ?? 1, {
      ...SYNTAX_ERROR, expected: 'a token of the pattern language', found: `'${character}'`,
    });
  }
  const last = result.tokens.at(-1);
  if (last?.tokenType === UnclosedComment) throw neverClosed('comment', '*/', last.startLine ?? 1, last.startColumn ?? 1);
  return result.tokens;
}

const SYNTAX_ERROR = { tck_type: 'SyntaxError', tck_detail: 'UnexpectedSyntax', phase: 'compile' };

/** A string, a name in backquotes or a comment that runs to the end of the input. */
function neverClosed(what: string, closer: string, line: number, column: number): QueryError {
  return new QueryError('unexpected_character', `the ${what} opened at line ${line}, column ${column} is never closed: expected a closing ${closer}`, line, column, {
    ...SYNTAX_ERROR, expected: `a closing ${closer}`, found: 'end of input',
  });
}

export const EOF_TOKEN = EOF;

/** Tokens that may name a variable or a function (openCypher's SymbolicName). */
export function isNameToken(type: TokenType): boolean {
  return type === Identifier || type === EscapedIdentifier || (type.CATEGORIES?.includes(SoftKeyword) ?? false);
}
