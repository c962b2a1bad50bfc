/**
 * Parser of the pattern language: one Chevrotain EmbeddedActionsParser instance
 * that builds the AST of ast.ts directly. Rule names follow the openCypher 9
 * grammar (without the `oC_` prefix).
 *
 * Deviations from the openCypher grammar:
 * - Write clauses: only CREATE is parsed (for the test-only writer). MERGE, SET,
 *   DELETE, DETACH DELETE and REMOVE raise `ReadOnlyQuery` where they start; inside the braces
 *   of EXISTS { } or COUNT { }, any write keyword (CREATE too) raises `InvalidClauseComposition`.
 * - EXISTS { } (openCypher's existentialSubquery) and COUNT { } (countSubquery, from GQL and
 *   Cypher 5, not in openCypher 9) take one pattern, with an optional MATCH before it and an
 *   optional WHERE and RETURN after it (RETURN items or `*`, without DISTINCT, ORDER BY, SKIP
 *   or LIMIT: one row per match). The pattern is one path: no comma-separated parts, no
 *   `p = ` path variable; other clauses (WITH, UNWIND, a second MATCH) inside the braces are
 *   not parsed.
 * - Not supported: CALL procedures, FOREACH, map projections
 *   `n {.name}`, parenthesised pattern elements `((a)-->(b))`, quantified path
 *   patterns, label expressions beyond `:A:B` on nodes and `:A|B` on relationships.
 * - Rule predicates: a function invocation whose name is a predicate of a loaded
 *   Prolog rule module (e.g. `WHERE reaches(a, b)`) is parsed as an ordinary
 *   `functionInvocation`; semantic analysis resolves it against the rule registry
 *   and the executor routes it to the Prolog bridge.
 * - Chained comparisons `a < b < c` mean `a < b AND b < c` (as in openCypher).
 * - Relationship patterns in WHERE (`WHERE (a)-->(b)`) are recognised by looking
 *   ahead past the parenthesised node, since LL(k) cannot tell them from `(expr)`.
 */
import {
  EarlyExitException, EmbeddedActionsParser, NoViableAltException, NotAllInputParsedException, getLookaheadPaths,
  type IParserErrorMessageProvider, type IRecognitionException, type IToken, type LookaheadProductionType, type Rule,
  type TokenType,
} from 'chevrotain';
import { QueryError } from '../errors.ts';
import type {
  BinaryOp, Clause, Expr, NodePattern, PatternPart, Position, Projection, ProjectionItem, QueryAst,
  RelationshipPattern, SingleQuery, SortItem,
} from './ast.ts';
import * as T from './lexer.ts';
import { MAX_EXPRESSION_DEPTH, MAX_QUERY_NESTING } from './limits.ts';
import { nestedDeeperThan } from '../input-checks.ts';
import { CLOSERS, OPENERS, syntaxError, type RuleStarts } from './syntax-error.ts';

const COMPARISON_TOKENS: [TokenType, BinaryOp][] = [
  [T.Equals, '='], [T.NotEquals, '<>'], [T.Less, '<'], [T.Greater, '>'], [T.LessEquals, '<='], [T.GreaterEquals, '>='],
];

function pos(token: IToken): Position {
  return { line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

/** The clause a write keyword begins, as an error names it. */
function writeClauseName(token: IToken): string {
  const keyword = token.image.toUpperCase();
  return keyword === 'DETACH' ? 'DETACH DELETE' : keyword;
}

function unescapeName(image: string): string {
  return image.startsWith('`') ? image.slice(1, -1).replace(/``/g, '`') : image;
}

const ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

function unescapeString(image: string): string {
  const body = image.slice(1, -1);
  return body.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, escape: string) => {
    if (escape.length > 1) return String.fromCodePoint(parseInt(escape.slice(1), 16));
    return ESCAPES[escape] ?? escape;
  });
}

/** The parts of chevrotain's recognizer that raising a syntax error needs (not in its typings). */
interface RecognizerInternals {
  getCurrRuleFullName(): string;
  getGAstProductions(): Record<string, Rule>;
  SAVE_ERROR(error: IRecognitionException): IRecognitionException;
  LA(howMuch: number): IToken;
}

/**
 * A recognition error's message carries the names of the token types the grammar
 * allowed there, for parse() to put in words (syntax-error.ts); chevrotain's own
 * prose would have to be read back. Redundant input has none: parse() works them out.
 */
const EXPECTED_SEPARATOR = ' ';
const encodeExpected = (types: TokenType[]): string => types.map((type) => type.name).join(EXPECTED_SEPARATOR);
const firstTokens = (paths: TokenType[][]): TokenType[] => paths.map((path) => path[0]).filter((type) => type !== undefined);
const expectedMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected }) => encodeExpected([expected]),
  buildNotAllInputParsedMessage: () => '',
  buildNoViableAltMessage: ({ expectedPathsPerAlt }) => encodeExpected(expectedPathsPerAlt.flatMap(firstTokens)),
  buildEarlyExitMessage: ({ expectedIterationPaths }) => encodeExpected(firstTokens(expectedIterationPaths)),
};
const TOKEN_BY_NAME = new Map([...T.ALL_TOKENS, T.EOF_TOKEN].map((type) => [type.name, type]));
const decodeExpected = (message: string): TokenType[] =>
  [...new Set(message.split(EXPECTED_SEPARATOR).flatMap((name) => TOKEN_BY_NAME.get(name) ?? []))];

/** chevrotain's PROD_TYPE numbers of the repetitions whose early exit it raises. */
const EARLY_EXIT_PRODUCTIONS: Record<number, LookaheadProductionType> = { 2: 'RepetitionMandatory', 3: 'RepetitionMandatoryWithSeparator' };

class PatternLanguageParser extends EmbeddedActionsParser {
  private source = '';
  /** What may come next at a grammar point, by rule, production kind and occurrence. */
  private readonly expectedAt = new Map<string, ReturnType<typeof getLookaheadPaths>>();

  /**
   * `validateGrammar` runs chevrotain's checks of the grammar itself (ambiguities,
   * left recursion...): a fixed property of this file, so the tests check it once
   * (validateGrammar below) and the parser every process builds at start-up skips
   * them (about 40% of its construction).
   */
  constructor(validateGrammar = false) {
    super(T.ALL_TOKENS, { maxLookahead: 4, recoveryEnabled: false, errorMessageProvider: expectedMessages, skipValidations: !validateGrammar });
    this.performSelfAnalysis();
  }

  /**
   * chevrotain's own raise computes the lookahead paths of the failing alternation to
   * maxLookahead (4) tokens deep on every syntax error: 30–400 ms at points deep in the
   * expression grammar, on the event loop and before any time limit. The error names
   * what could come next, so one token deep is enough, remembered per grammar point.
   */
  private expected(occurrence: number, prodType: LookaheadProductionType): ReturnType<typeof getLookaheadPaths> {
    const self = this as unknown as RecognizerInternals;
    const ruleName = self.getCurrRuleFullName();
    const key = `${ruleName} ${prodType} ${occurrence}`;
    let paths = this.expectedAt.get(key);
    if (!paths) {
      paths = getLookaheadPaths({ occurrence, rule: self.getGAstProductions()[ruleName], prodType, maxLookahead: 1 });
      this.expectedAt.set(key, paths);
    }
    return paths;
  }

  /** Replaces chevrotain's (error_handler.js) with the cheap expected() above. */
  raiseNoAltException(occurrence: number, customUserDescription: string | undefined): never {
    const self = this as unknown as RecognizerInternals;
    const message = expectedMessages.buildNoViableAltMessage({
      expectedPathsPerAlt: this.expected(occurrence, 'Alternation'),
      actual: [self.LA(1)],
      previous: self.LA(0),
      customUserDescription: customUserDescription as string,
      ruleName: self.getCurrRuleFullName(),
    });
    throw self.SAVE_ERROR(new NoViableAltException(message, self.LA(1), self.LA(0)));
  }

  /** Replaces chevrotain's (error_handler.js) with the cheap expected() above. */
  raiseEarlyExitException(occurrence: number, prodType: number, customUserDescription: string | undefined): never {
    const self = this as unknown as RecognizerInternals;
    const message = expectedMessages.buildEarlyExitMessage({
      expectedIterationPaths: this.expected(occurrence, EARLY_EXIT_PRODUCTIONS[prodType])[0],
      actual: [self.LA(1)],
      previous: self.LA(0),
      customUserDescription: customUserDescription as string,
      ruleName: self.getCurrRuleFullName(),
    });
    throw self.SAVE_ERROR(new EarlyExitException(message, self.LA(1), self.LA(0)));
  }

  parseText(source: string, tokens: IToken[]): QueryAst {
    this.source = source;
    this.input = tokens;
    return this.cypher();
  }

  // ---- queries and clauses ----

  cypher = this.RULE('cypher', (): QueryAst => {
    const query = this.SUBRULE(this.regularQuery);
    this.OPTION(() => this.CONSUME(T.Semicolon));
    return query;
  });

  regularQuery = this.RULE('regularQuery', (): QueryAst => {
    const parts: SingleQuery[] = [this.SUBRULE(this.singleQuery)];
    const unionAll: boolean[] = [];
    this.MANY(() => {
      this.CONSUME(T.Union);
      let all = false;
      this.OPTION(() => {
        this.CONSUME(T.All);
        all = true;
      });
      unionAll.push(all);
      parts.push(this.SUBRULE2(this.singleQuery));
    });
    return { parts, unionAll };
  });

  singleQuery = this.RULE('singleQuery', (): SingleQuery => {
    const clauses: Clause[] = [];
    this.AT_LEAST_ONE(() => clauses.push(this.SUBRULE(this.clause)));
    return { clauses };
  });

  clause = this.RULE('clause', (): Clause =>
    this.OR([
      { ALT: () => this.SUBRULE(this.match) },
      { ALT: () => this.SUBRULE(this.unwind) },
      { ALT: () => this.SUBRULE(this.with) },
      { ALT: () => this.SUBRULE(this.return) },
      { ALT: () => this.SUBRULE(this.create) },
      { ALT: () => this.SUBRULE(this.updatingClause) },
    ]),
  );

  match = this.RULE('match', (): Clause => {
    let optional = false;
    let first: IToken | undefined;
    this.OPTION(() => {
      first = this.CONSUME(T.Optional);
      optional = true;
    });
    const keyword = this.CONSUME(T.Match);
    const patterns = this.SUBRULE(this.pattern);
    const where = this.OPTION2(() => this.SUBRULE(this.where));
    return { kind: 'match', optional, patterns, where, pos: pos(first ?? keyword) };
  });

  unwind = this.RULE('unwind', (): Clause => {
    const keyword = this.CONSUME(T.Unwind);
    const expr = this.SUBRULE(this.expression);
    this.CONSUME(T.As);
    const alias = this.SUBRULE(this.variable);
    return { kind: 'unwind', expr, alias, pos: pos(keyword) };
  });

  with = this.RULE('with', (): Clause => {
    const keyword = this.CONSUME(T.With);
    const projection = this.SUBRULE(this.projectionBody);
    const where = this.OPTION(() => this.SUBRULE(this.where));
    return this.ACTION(() => ({ kind: 'with', projection: { ...projection, pos: pos(keyword) }, where, pos: pos(keyword) }));
  });

  return = this.RULE('return', (): Clause => {
    const keyword = this.CONSUME(T.Return);
    const projection = this.SUBRULE(this.projectionBody);
    return this.ACTION(() => ({ kind: 'return', projection: { ...projection, pos: pos(keyword) }, pos: pos(keyword) }));
  });

  create = this.RULE('create', (): Clause => {
    const keyword = this.CONSUME(T.Create);
    const patterns = this.SUBRULE(this.pattern);
    return { kind: 'create', patterns, pos: pos(keyword) };
  });

  /** MERGE, SET, DELETE, REMOVE: recognised only to be refused (the service is read-only). */
  updatingClause = this.RULE('updatingClause', (): Clause => {
    const token = this.SUBRULE(this.updatingKeyword);
    return this.ACTION(() => {
      const keyword = writeClauseName(token);
      throw QueryError.tck('SyntaxError', 'ReadOnlyQuery', `${keyword} writes to the graph; queries are read-only`, pos(token), { clause: keyword, phase: 'compile' });
    });
  });

  /** The keyword that begins an updating clause other than CREATE. */
  updatingKeyword = this.RULE('updatingKeyword', (): IToken =>
    this.OR([
      { ALT: () => this.CONSUME(T.Merge) },
      { ALT: () => this.CONSUME(T.Set) },
      { ALT: () => this.CONSUME(T.Delete) },
      { ALT: () => this.CONSUME(T.Remove) },
      { ALT: () => this.CONSUME(T.Detach) },
    ]),
  );

  where = this.RULE('where', (): Expr => {
    this.CONSUME(T.Where);
    return this.SUBRULE(this.expression);
  });

  projectionBody = this.RULE('projectionBody', (): Projection => {
    let distinct = false;
    this.OPTION(() => {
      this.CONSUME(T.Distinct);
      distinct = true;
    });
    const { star, items } = this.SUBRULE(this.projectionItems);
    const orderBy = this.OPTION2(() => this.SUBRULE(this.order));
    const skip = this.OPTION3(() => {
      this.CONSUME(T.Skip);
      return this.SUBRULE(this.expression);
    });
    const limit = this.OPTION4(() => {
      this.CONSUME(T.Limit);
      return this.SUBRULE2(this.expression);
    });
    return { distinct, star, items, orderBy, skip, limit, pos: { line: 1, column: 1 } };
  });

  projectionItems = this.RULE('projectionItems', (): { star: boolean; items: ProjectionItem[] } => {
    const items: ProjectionItem[] = [];
    let star = false;
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Star);
          star = true;
          this.MANY(() => {
            this.CONSUME(T.Comma);
            items.push(this.SUBRULE(this.projectionItem));
          });
        },
      },
      {
        ALT: () => {
          items.push(this.SUBRULE2(this.projectionItem));
          this.MANY2(() => {
            this.CONSUME2(T.Comma);
            items.push(this.SUBRULE3(this.projectionItem));
          });
        },
      },
    ]);
    return { star, items };
  });

  projectionItem = this.RULE('projectionItem', (): ProjectionItem => {
    const start = this.LA(1);
    const expr = this.SUBRULE(this.expression);
    const end = this.LA(0);
    const alias = this.OPTION(() => {
      this.CONSUME(T.As);
      return this.SUBRULE(this.variable);
    });
    return this.ACTION(() => ({
      expr,
      alias,
      text: this.source.slice(start.startOffset, (end.endOffset ?? start.startOffset) + 1),
      pos: pos(start),
    }));
  });

  order = this.RULE('order', (): SortItem[] => {
    this.CONSUME(T.Order);
    this.CONSUME(T.By);
    const items: SortItem[] = [this.SUBRULE(this.sortItem)];
    this.MANY(() => {
      this.CONSUME(T.Comma);
      items.push(this.SUBRULE2(this.sortItem));
    });
    return items;
  });

  sortItem = this.RULE('sortItem', (): SortItem => {
    const expr = this.SUBRULE(this.expression);
    let descending = false;
    this.OPTION(() =>
      this.OR([
        { ALT: () => this.CONSUME(T.Ascending) },
        { ALT: () => this.CONSUME(T.Asc) },
        { ALT: () => (this.CONSUME(T.Descending), (descending = true)) },
        { ALT: () => (this.CONSUME(T.Desc), (descending = true)) },
      ]),
    );
    return { expr, descending };
  });

  // ---- patterns ----

  pattern = this.RULE('pattern', (): PatternPart[] => {
    const parts = [this.SUBRULE(this.patternPart)];
    this.MANY(() => {
      this.CONSUME(T.Comma);
      parts.push(this.SUBRULE2(this.patternPart));
    });
    return parts;
  });

  patternPart = this.RULE('patternPart', (): PatternPart => {
    const pathVariable = this.OPTION(() => {
      const name = this.SUBRULE(this.variable);
      this.CONSUME(T.Equals);
      return name;
    });
    const element = this.SUBRULE(this.patternElement);
    return this.ACTION(() => ({ ...element, pathVariable }));
  });

  patternElement = this.RULE('patternElement', (): PatternPart => {
    const first = this.SUBRULE(this.nodePattern);
    const nodes: NodePattern[] = [first];
    const relationships: RelationshipPattern[] = [];
    this.MANY(() => {
      relationships.push(this.SUBRULE(this.relationshipPattern));
      nodes.push(this.SUBRULE2(this.nodePattern));
    });
    return this.ACTION(() => ({ nodes, relationships, pos: first.pos }));
  });

  nodePattern = this.RULE('nodePattern', (): NodePattern => {
    const open = this.CONSUME(T.LParen);
    const variable = this.OPTION(() => this.SUBRULE(this.variable));
    const named = this.OPTION2(() => this.SUBRULE(this.nodeLabels));
    const properties = this.OPTION3(() => this.SUBRULE(this.properties));
    this.CONSUME(T.RParen);
    return { variable, labels: named?.labels ?? [], labelsAt: named?.labelsAt ?? [], properties, pos: pos(open) };
  });

  nodeLabels = this.RULE('nodeLabels', (): { labels: string[]; labelsAt: Position[] } => {
    const labels: string[] = [];
    const labelsAt: Position[] = [];
    this.AT_LEAST_ONE(() => {
      this.CONSUME(T.Colon);
      labelsAt.push(pos(this.LA(1)));
      labels.push(this.SUBRULE(this.schemaName));
    });
    return { labels, labelsAt };
  });

  relationshipPattern = this.RULE('relationshipPattern', (): RelationshipPattern => {
    let left = false;
    let right = false;
    const first = this.LA(1);
    this.OPTION(() => {
      this.CONSUME(T.Less);
      left = true;
    });
    this.CONSUME(T.Minus);
    const detail = this.OPTION2(() => this.SUBRULE(this.relationshipDetail));
    this.CONSUME2(T.Minus);
    this.OPTION3(() => {
      this.CONSUME(T.Greater);
      right = true;
    });
    return this.ACTION(() => {
      const direction = left && !right ? 'in' : right && !left ? 'out' : 'both';
      return { types: [], typesAt: [], ...detail, direction, pos: pos(first) };
    });
  });

  relationshipDetail = this.RULE('relationshipDetail', (): Omit<RelationshipPattern, 'direction' | 'pos'> => {
    this.CONSUME(T.LBracket);
    const variable = this.OPTION(() => this.SUBRULE(this.variable));
    const named = this.OPTION2(() => this.SUBRULE(this.relationshipTypes));
    const range = this.OPTION3(() => this.SUBRULE(this.rangeLiteral));
    const properties = this.OPTION4(() => this.SUBRULE(this.properties));
    this.CONSUME(T.RBracket);
    return { variable, types: named?.types ?? [], typesAt: named?.typesAt ?? [], range, properties };
  });

  relationshipTypes = this.RULE('relationshipTypes', (): { types: string[]; typesAt: Position[] } => {
    this.CONSUME(T.Colon);
    const typesAt = [pos(this.LA(1))];
    const types = [this.SUBRULE(this.schemaName)];
    this.MANY(() => {
      this.CONSUME(T.Pipe);
      this.OPTION(() => this.CONSUME2(T.Colon));
      const at = pos(this.LA(1));
      const type = this.SUBRULE2(this.schemaName);
      // `:T|T` is a set of types: a type written twice is walked once (the TCK's Match3 [8])
      if (!types.includes(type)) {
        typesAt.push(at);
        types.push(type);
      }
    });
    return { types, typesAt };
  });

  rangeLiteral = this.RULE('rangeLiteral', (): { min?: number; max?: number } => {
    this.CONSUME(T.Star);
    let min: number | undefined;
    let max: number | undefined;
    let dots = false;
    this.OPTION(() => (min = this.SUBRULE(this.integerLiteral)));
    this.OPTION2(() => {
      this.CONSUME(T.DotDot);
      dots = true;
      this.OPTION3(() => (max = this.SUBRULE2(this.integerLiteral)));
    });
    return this.ACTION(() => (dots ? { min, max } : min !== undefined ? { min, max: min } : {}));
  });

  integerLiteral = this.RULE('integerLiteral', (): number => {
    const token = this.CONSUME(T.DecimalInteger);
    return this.ACTION(() => Number(token.image));
  });

  properties = this.RULE('properties', (): Expr =>
    this.OR([{ ALT: () => this.SUBRULE(this.mapLiteral) }, { ALT: () => this.SUBRULE(this.parameter) }]),
  );

  // ---- expressions ----

  expression = this.RULE('expression', (): Expr => this.SUBRULE(this.orExpression));

  orExpression = this.RULE('orExpression', (): Expr => {
    let left = this.SUBRULE(this.xorExpression);
    this.MANY(() => {
      const op = this.CONSUME(T.Or);
      const right = this.SUBRULE2(this.xorExpression);
      left = { kind: 'binary', op: 'OR', left, right, pos: pos(op) };
    });
    return left;
  });

  xorExpression = this.RULE('xorExpression', (): Expr => {
    let left = this.SUBRULE(this.andExpression);
    this.MANY(() => {
      const op = this.CONSUME(T.Xor);
      const right = this.SUBRULE2(this.andExpression);
      left = { kind: 'binary', op: 'XOR', left, right, pos: pos(op) };
    });
    return left;
  });

  andExpression = this.RULE('andExpression', (): Expr => {
    let left = this.SUBRULE(this.notExpression);
    this.MANY(() => {
      const op = this.CONSUME(T.And);
      const right = this.SUBRULE2(this.notExpression);
      left = { kind: 'binary', op: 'AND', left, right, pos: pos(op) };
    });
    return left;
  });

  notExpression = this.RULE('notExpression', (): Expr => {
    const nots: IToken[] = [];
    this.MANY(() => nots.push(this.CONSUME(T.Not)));
    let operand = this.SUBRULE(this.comparisonExpression);
    return this.ACTION(() => {
      for (let i = nots.length - 1; i >= 0; i--) operand = { kind: 'unary', op: 'NOT', operand, pos: pos(nots[i]) };
      return operand;
    });
  });

  comparisonExpression = this.RULE('comparisonExpression', (): Expr => {
    const first = this.SUBRULE(this.stringListNullPredicateExpression);
    const comparisons: { op: BinaryOp; right: Expr; token: IToken }[] = [];
    this.MANY(() => {
      const token = this.OR(COMPARISON_TOKENS.map(([type]) => ({ ALT: () => this.CONSUME(type) })));
      const right = this.SUBRULE2(this.stringListNullPredicateExpression);
      comparisons.push({ op: this.ACTION(() => COMPARISON_TOKENS.find(([type]) => type === token.tokenType)![1]), right, token });
    });
    return this.ACTION(() => {
      let result: Expr | undefined;
      let left = first;
      for (const { op, right, token } of comparisons) {
        const comparison: Expr = { kind: 'binary', op, left, right, pos: pos(token) };
        result = result ? { kind: 'binary', op: 'AND', left: result, right: comparison, pos: pos(token) } : comparison;
        left = right;
      }
      return result ?? first;
    });
  });

  stringListNullPredicateExpression = this.RULE('stringListNullPredicateExpression', (): Expr => {
    let left = this.SUBRULE(this.addOrSubtractExpression);
    this.MANY(() =>
      this.OR([
        {
          ALT: () => {
            const token = this.CONSUME(T.Starts);
            this.CONSUME(T.With);
            const right = this.SUBRULE2(this.addOrSubtractExpression);
            left = { kind: 'binary', op: 'STARTS WITH', left, right, pos: pos(token) };
          },
        },
        {
          ALT: () => {
            const token = this.CONSUME(T.Ends);
            this.CONSUME2(T.With);
            const right = this.SUBRULE3(this.addOrSubtractExpression);
            left = { kind: 'binary', op: 'ENDS WITH', left, right, pos: pos(token) };
          },
        },
        {
          ALT: () => {
            const token = this.CONSUME(T.Contains);
            const right = this.SUBRULE4(this.addOrSubtractExpression);
            left = { kind: 'binary', op: 'CONTAINS', left, right, pos: pos(token) };
          },
        },
        {
          ALT: () => {
            const token = this.CONSUME(T.RegexMatch);
            const right = this.SUBRULE5(this.addOrSubtractExpression);
            left = { kind: 'binary', op: '=~', left, right, pos: pos(token) };
          },
        },
        {
          ALT: () => {
            const token = this.CONSUME(T.In);
            const right = this.SUBRULE6(this.addOrSubtractExpression);
            left = { kind: 'binary', op: 'IN', left, right, pos: pos(token) };
          },
        },
        {
          ALT: () => {
            const token = this.CONSUME(T.Is);
            let negated = false;
            this.OPTION(() => {
              this.CONSUME(T.Not);
              negated = true;
            });
            this.CONSUME(T.Null);
            left = { kind: 'isNull', operand: left, negated, pos: pos(token) };
          },
        },
      ]),
    );
    return left;
  });

  addOrSubtractExpression = this.RULE('addOrSubtractExpression', (): Expr => {
    let left = this.SUBRULE(this.multiplyDivideModuloExpression);
    this.MANY(() => {
      const token = this.OR([{ ALT: () => this.CONSUME(T.Plus) }, { ALT: () => this.CONSUME(T.Minus) }]);
      const right = this.SUBRULE2(this.multiplyDivideModuloExpression);
      left = this.ACTION(() => ({ kind: 'binary', op: token.tokenType === T.Plus ? '+' : '-', left, right, pos: pos(token) }));
    });
    return left;
  });

  multiplyDivideModuloExpression = this.RULE('multiplyDivideModuloExpression', (): Expr => {
    let left = this.SUBRULE(this.powerOfExpression);
    this.MANY(() => {
      const token = this.OR([
        { ALT: () => this.CONSUME(T.Star) },
        { ALT: () => this.CONSUME(T.Slash) },
        { ALT: () => this.CONSUME(T.Percent) },
      ]);
      const right = this.SUBRULE2(this.powerOfExpression);
      left = this.ACTION(() => ({
        kind: 'binary',
        op: token.tokenType === T.Star ? '*' : token.tokenType === T.Slash ? '/' : '%',
        left,
        right,
        pos: pos(token),
      }));
    });
    return left;
  });

  powerOfExpression = this.RULE('powerOfExpression', (): Expr => {
    let left = this.SUBRULE(this.unaryAddOrSubtractExpression);
    this.MANY(() => {
      const token = this.CONSUME(T.Caret);
      const right = this.SUBRULE2(this.unaryAddOrSubtractExpression);
      left = { kind: 'binary', op: '^', left, right, pos: pos(token) };
    });
    return left;
  });

  unaryAddOrSubtractExpression = this.RULE('unaryAddOrSubtractExpression', (): Expr => {
    const signs: IToken[] = [];
    this.MANY(() => signs.push(this.OR([{ ALT: () => this.CONSUME(T.Plus) }, { ALT: () => this.CONSUME(T.Minus) }])));
    let operand = this.SUBRULE(this.nonArithmeticOperatorExpression);
    return this.ACTION(() => {
      for (let i = signs.length - 1; i >= 0; i--) {
        const op = signs[i].tokenType === T.Plus ? '+' : '-';
        // fold `-123` so that the smallest 64-bit integer is writable as a literal
        if (op === '-' && operand.kind === 'literal' && (typeof operand.value === 'bigint' || typeof operand.value === 'number') ) {
          operand = { kind: 'literal', value: -operand.value, pos: pos(signs[i]) };
        } else {
          operand = { kind: 'unary', op, operand, pos: pos(signs[i]) };
        }
      }
      return operand;
    });
  });

  nonArithmeticOperatorExpression = this.RULE('nonArithmeticOperatorExpression', (): Expr => {
    let target = this.SUBRULE(this.atom);
    this.MANY(() =>
      this.OR([
        {
          ALT: () => {
            const token = this.CONSUME(T.Dot);
            const keyAt = pos(this.LA(1));
            const key = this.SUBRULE(this.schemaName);
            target = { kind: 'prop', target, key, keyAt, pos: pos(token) };
          },
        },
        {
          ALT: () => {
            const token = this.CONSUME(T.LBracket);
            this.OR2([
              {
                ALT: () => {
                  this.CONSUME(T.DotDot);
                  const to = this.OPTION(() => this.SUBRULE(this.expression));
                  target = { kind: 'slice', target, to, pos: pos(token) };
                },
              },
              {
                ALT: () => {
                  const index = this.SUBRULE2(this.expression);
                  this.OR3([
                    {
                      ALT: () => {
                        this.CONSUME2(T.DotDot);
                        const to = this.OPTION2(() => this.SUBRULE3(this.expression));
                        target = { kind: 'slice', target, from: index, to, pos: pos(token) };
                      },
                    },
                    { ALT: () => (target = { kind: 'index', target, index, pos: pos(token) }) },
                  ]);
                },
              },
            ]);
            this.CONSUME(T.RBracket);
          },
        },
        {
          ALT: () => {
            const token = this.LA(1);
            const { labels, labelsAt } = this.SUBRULE(this.nodeLabels);
            target = { kind: 'labels', target, labels, labelsAt, pos: pos(token) };
          },
        },
      ]),
    );
    return target;
  });

  atom = this.RULE('atom', (): Expr =>
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => this.SUBRULE(this.literal) },
        { ALT: () => this.SUBRULE(this.parameter) },
        { ALT: () => this.SUBRULE(this.caseExpression) },
        {
          GATE: () => this.LA(1).tokenType === T.Count && this.LA(2).tokenType === T.LParen && this.LA(3).tokenType === T.Star,
          ALT: () => this.SUBRULE(this.countStar),
        },
        { GATE: () => this.LA(1).tokenType === T.Count && this.LA(2).tokenType === T.LBrace, ALT: () => this.SUBRULE(this.countSubquery) },
        { GATE: () => this.LA(1).tokenType === T.Exists && this.LA(2).tokenType === T.LBrace, ALT: () => this.SUBRULE(this.existentialSubquery) },
        { GATE: () => this.isComprehensionAhead(), ALT: () => this.SUBRULE(this.listComprehension) },
        { GATE: () => this.isPatternComprehensionAhead(), ALT: () => this.SUBRULE(this.patternComprehension) },
        { ALT: () => this.SUBRULE(this.listLiteral) },
        { GATE: () => this.isQuantifierAhead(), ALT: () => this.SUBRULE(this.quantifier) },
        { GATE: () => this.isRelationshipsPatternAhead(), ALT: () => this.SUBRULE(this.relationshipsPattern) },
        { ALT: () => this.SUBRULE(this.parenthesizedExpression) },
        { GATE: () => this.isFunctionInvocationAhead(), ALT: () => this.SUBRULE(this.functionInvocation) },
        { ALT: () => this.SUBRULE(this.variableExpression) },
      ],
    }),
  );

  literal = this.RULE('literal', (): Expr =>
    this.OR([
      { ALT: () => this.SUBRULE(this.numberLiteral) },
      {
        ALT: () => {
          const token = this.CONSUME(T.StringLiteral);
          return this.ACTION(() => ({ kind: 'literal', value: unescapeString(token.image), pos: pos(token) }) as Expr);
        },
      },
      { ALT: () => ({ kind: 'literal', value: true, pos: pos(this.CONSUME(T.True)) }) as Expr },
      { ALT: () => ({ kind: 'literal', value: false, pos: pos(this.CONSUME(T.False)) }) as Expr },
      { ALT: () => ({ kind: 'literal', value: null, pos: pos(this.CONSUME(T.Null)) }) as Expr },
      { ALT: () => this.SUBRULE(this.mapLiteral) },
    ]),
  );

  numberLiteral = this.RULE('numberLiteral', (): Expr => {
    const token = this.OR([
      { ALT: () => this.CONSUME(T.FloatLiteral) },
      { ALT: () => this.CONSUME(T.DecimalInteger) },
      { ALT: () => this.CONSUME(T.HexInteger) },
      { ALT: () => this.CONSUME(T.OctalInteger) },
    ]);
    return this.ACTION(() => {
      const value = token.tokenType === T.FloatLiteral ? Number(token.image) : BigInt(token.image);
      return { kind: 'literal', value, pos: pos(token) } as Expr;
    });
  });

  mapLiteral = this.RULE('mapLiteral', (): Expr => {
    const open = this.CONSUME(T.LBrace);
    const entries: [string, Expr][] = [];
    const keysAt: Position[] = [];
    this.OPTION(() => {
      keysAt.push(pos(this.LA(1)));
      const key = this.SUBRULE(this.schemaName);
      this.CONSUME(T.Colon);
      entries.push([key, this.SUBRULE(this.expression)]);
      this.MANY(() => {
        this.CONSUME(T.Comma);
        keysAt.push(pos(this.LA(1)));
        const nextKey = this.SUBRULE2(this.schemaName);
        this.CONSUME2(T.Colon);
        entries.push([nextKey, this.SUBRULE2(this.expression)]);
      });
    });
    this.CONSUME(T.RBrace);
    return { kind: 'map', entries, keysAt, pos: pos(open) };
  });

  listLiteral = this.RULE('listLiteral', (): Expr => {
    const open = this.CONSUME(T.LBracket);
    const items: Expr[] = [];
    this.OPTION(() => {
      items.push(this.SUBRULE(this.expression));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        items.push(this.SUBRULE2(this.expression));
      });
    });
    this.CONSUME(T.RBracket);
    return { kind: 'list', items, pos: pos(open) };
  });

  parameter = this.RULE('parameter', (): Expr => {
    const token = this.CONSUME(T.Parameter);
    return this.ACTION(() => ({ kind: 'param', name: unescapeName(token.image.slice(1)), pos: pos(token) }) as Expr);
  });

  caseExpression = this.RULE('caseExpression', (): Expr => {
    const token = this.CONSUME(T.Case);
    const subject = this.OPTION(() => this.SUBRULE(this.expression));
    const whens: [Expr, Expr][] = [];
    this.AT_LEAST_ONE(() => {
      this.CONSUME(T.When);
      const condition = this.SUBRULE2(this.expression);
      this.CONSUME(T.Then);
      whens.push([condition, this.SUBRULE3(this.expression)]);
    });
    const otherwise = this.OPTION2(() => {
      this.CONSUME(T.Else);
      return this.SUBRULE4(this.expression);
    });
    this.CONSUME(T.End);
    return { kind: 'case', subject, whens, otherwise, pos: pos(token) };
  });

  countStar = this.RULE('countStar', (): Expr => {
    const token = this.CONSUME(T.Count);
    this.CONSUME(T.LParen);
    this.CONSUME(T.Star);
    this.CONSUME(T.RParen);
    return { kind: 'call', name: 'count', distinct: false, args: [], star: true, pos: pos(token) };
  });

  existentialSubquery = this.RULE('existentialSubquery', (): Expr => {
    const token = this.CONSUME(T.Exists);
    const body = this.SUBRULE(this.subqueryPattern);
    return this.ACTION(() => ({ kind: 'patternSubquery', quantity: 'exists', ...body, pos: pos(token) }) as Expr);
  });

  countSubquery = this.RULE('countSubquery', (): Expr => {
    const token = this.CONSUME(T.Count);
    const body = this.SUBRULE(this.subqueryPattern);
    return this.ACTION(() => ({ kind: 'patternSubquery', quantity: 'count', ...body, pos: pos(token) }) as Expr);
  });

  /** The braces of EXISTS { } and COUNT { }: one pattern, with MATCH before it and WHERE and RETURN after it optional. */
  subqueryPattern = this.RULE('subqueryPattern', (): { pattern: PatternPart; where?: Expr; returns?: Expr[] } => {
    this.CONSUME(T.LBrace);
    this.OPTION(() => this.CONSUME(T.Match));
    const pattern = this.SUBRULE(this.patternElement);
    const where = this.OPTION2(() => this.SUBRULE(this.where));
    const returns = this.OPTION3(() => {
      this.CONSUME(T.Return);
      const { items } = this.SUBRULE(this.projectionItems);
      return this.ACTION(() => items.map((item) => item.expr));
    });
    this.OPTION4(() => {
      const token = this.OR([{ ALT: () => this.CONSUME(T.Create) }, { ALT: () => this.SUBRULE(this.updatingKeyword) }]);
      this.ACTION(() => {
        throw QueryError.tck('SyntaxError', 'InvalidClauseComposition', `a subquery in an expression cannot write to the graph (${writeClauseName(token)})`, pos(token), { phase: 'compile' });
      });
    });
    this.CONSUME(T.RBrace);
    return { pattern, where, returns };
  });

  listComprehension = this.RULE('listComprehension', (): Expr => {
    const open = this.CONSUME(T.LBracket);
    const variable = this.SUBRULE(this.variable);
    this.CONSUME(T.In);
    const source = this.SUBRULE(this.expression);
    const where = this.OPTION(() => this.SUBRULE(this.where));
    const map = this.OPTION2(() => {
      this.CONSUME(T.Pipe);
      return this.SUBRULE2(this.expression);
    });
    this.CONSUME(T.RBracket);
    return { kind: 'comprehension', variable, source, where, map, pos: pos(open) };
  });

  patternComprehension = this.RULE('patternComprehension', (): Expr => {
    const open = this.CONSUME(T.LBracket);
    const pathVariable = this.OPTION(() => {
      const name = this.SUBRULE(this.variable);
      this.CONSUME(T.Equals);
      return name;
    });
    const element = this.SUBRULE(this.patternElement);
    const where = this.OPTION2(() => this.SUBRULE(this.where));
    this.CONSUME(T.Pipe);
    const map = this.SUBRULE(this.expression);
    this.CONSUME(T.RBracket);
    return this.ACTION(() => ({ kind: 'patternComprehension', pattern: { ...element, pathVariable }, where, map, pos: pos(open) }) as Expr);
  });

  quantifier = this.RULE('quantifier', (): Expr => {
    const token = this.OR([
      { ALT: () => this.CONSUME(T.All) },
      { ALT: () => this.CONSUME(T.Any) },
      { ALT: () => this.CONSUME(T.None) },
      { ALT: () => this.CONSUME(T.Single) },
    ]);
    this.CONSUME(T.LParen);
    const variable = this.SUBRULE(this.variable);
    this.CONSUME(T.In);
    const source = this.SUBRULE(this.expression);
    const where = this.SUBRULE(this.where);
    this.CONSUME(T.RParen);
    return this.ACTION(() => ({
      kind: 'quantifier',
      quantifier: token.image.toLowerCase() as 'all' | 'any' | 'none' | 'single',
      variable,
      source,
      where,
      pos: pos(token),
    }) as Expr);
  });

  relationshipsPattern = this.RULE('relationshipsPattern', (): Expr => {
    const element = this.SUBRULE(this.patternElement);
    return this.ACTION(() => ({ kind: 'pattern', pattern: element, pos: element.pos }) as Expr);
  });

  parenthesizedExpression = this.RULE('parenthesizedExpression', (): Expr => {
    this.CONSUME(T.LParen);
    const expr = this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
    return expr;
  });

  functionInvocation = this.RULE('functionInvocation', (): Expr => {
    const first = this.LA(1);
    const parts = [this.SUBRULE(this.symbolicName)];
    this.MANY(() => {
      this.CONSUME(T.Dot);
      parts.push(this.SUBRULE2(this.symbolicName));
    });
    this.CONSUME(T.LParen);
    let distinct = false;
    this.OPTION(() => {
      this.CONSUME(T.Distinct);
      distinct = true;
    });
    const args: Expr[] = [];
    this.OPTION2(() => {
      args.push(this.SUBRULE(this.expression));
      this.MANY2(() => {
        this.CONSUME(T.Comma);
        args.push(this.SUBRULE2(this.expression));
      });
    });
    this.CONSUME(T.RParen);
    return this.ACTION(() => ({ kind: 'call', name: parts.join('.'), distinct, args, star: false, pos: pos(first) }) as Expr);
  });

  variableExpression = this.RULE('variableExpression', (): Expr => {
    const token = this.LA(1);
    const name = this.SUBRULE(this.variable);
    return { kind: 'var', name, pos: pos(token) };
  });

  variable = this.RULE('variable', (): string => this.SUBRULE(this.symbolicName));

  symbolicName = this.RULE('symbolicName', (): string => {
    const token = this.OR([
      { ALT: () => this.CONSUME(T.Identifier) },
      { ALT: () => this.CONSUME(T.EscapedIdentifier) },
      { ALT: () => this.CONSUME(T.SoftKeyword) },
    ]);
    return this.ACTION(() => unescapeName(token.image));
  });

  /** openCypher's SchemaName: labels, types and property keys may be reserved words. */
  schemaName = this.RULE('schemaName', (): string => {
    const token = this.OR([
      { ALT: () => this.CONSUME(T.Identifier) },
      { ALT: () => this.CONSUME(T.EscapedIdentifier) },
      { ALT: () => this.CONSUME(T.Keyword) },
    ]);
    return this.ACTION(() => unescapeName(token.image));
  });

  // ---- lookahead gates for what LL(k) cannot decide ----

  private isName(token: IToken): boolean {
    return T.isNameToken(token.tokenType);
  }

  private isFunctionInvocationAhead(): boolean {
    let k = 1;
    if (!this.isName(this.LA(k))) return false;
    k++;
    while (this.LA(k).tokenType === T.Dot && this.isName(this.LA(k + 1))) k += 2;
    return this.LA(k).tokenType === T.LParen;
  }

  private isComprehensionAhead(): boolean {
    return this.LA(1).tokenType === T.LBracket && this.isName(this.LA(2)) && this.LA(3).tokenType === T.In;
  }

  private isQuantifierAhead(): boolean {
    const type = this.LA(1).tokenType;
    return (
      (type === T.All || type === T.Any || type === T.None || type === T.Single) &&
      this.LA(2).tokenType === T.LParen &&
      this.isName(this.LA(3)) &&
      this.LA(4).tokenType === T.In
    );
  }

  /** `[(a)-->(b) | …]` or `[p = (a)-->(b) | …]`. */
  private isPatternComprehensionAhead(): boolean {
    if (this.LA(1).tokenType !== T.LBracket) return false;
    let k = 2;
    if (this.isName(this.LA(k)) && this.LA(k + 1).tokenType === T.Equals) k += 2;
    return this.LA(k).tokenType === T.LParen && this.relationshipFollowsParenAt(k);
  }

  private isRelationshipsPatternAhead(): boolean {
    return this.LA(1).tokenType === T.LParen && this.relationshipFollowsParenAt(1);
  }

  /** After the parenthesis opened at LA(k) closes, does a relationship arrow follow? */
  private relationshipFollowsParenAt(k: number): boolean {
    let depth = 0;
    for (let i = k; i < k + 200; i++) {
      const type = this.LA(i).tokenType;
      if (type === T.LParen) depth++;
      else if (type === T.RParen) {
        depth--;
        if (depth === 0) {
          const next = this.LA(i + 1).tokenType;
          const after = this.LA(i + 2).tokenType;
          if (next === T.Minus) return after === T.LBracket || after === T.Minus || after === T.Greater;
          return next === T.Less && after === T.Minus;
        }
      } else if (type === T.EOF_TOKEN) return false;
    }
    return false;
  }
}

const parserInstance = new PatternLanguageParser();

/** Builds the parser with chevrotain's grammar checks on: throws its definition errors (for the tests). */
export function validateGrammar(): void {
  new PatternLanguageParser(true);
}

/** Parses query text into the AST. Throws QueryError (code `unexpected_syntax`, TCK `SyntaxError.UnexpectedSyntax`) with line and column. */
export function parse(text: string): QueryAst {
  const tokens = T.tokenize(text);
  checkNesting(tokens);
  const ast = parseTokens(text, tokens);
  const error = parserInstance.errors[0];
  if (error) {
    const index = error.token.tokenType === T.EOF_TOKEN || Number.isNaN(error.token.startLine) ? tokens.length : tokens.indexOf(error.token);
    if (error instanceof NotAllInputParsedException) throw redundantInput(tokens, index);
    throw syntaxError(tokens, index, decodeExpected(error.message), RULE_STARTS, { allowedAt });
  }
  // positions are one object level each; the budget counts expression levels
  if (nestedDeeperThan(ast, MAX_EXPRESSION_DEPTH + 16, false)) {
    throw new QueryError('query_expression_depth', `the query nests expressions more than ${MAX_EXPRESSION_DEPTH} deep (long operator chains count one level per operator)`, 1, 1, {
      limit: MAX_EXPRESSION_DEPTH,
      phase: 'compile',
    });
  }
  return ast;
}

/** The parser recurses once per open bracket: refuse too many at once before it starts. */
function checkNesting(tokens: IToken[]): void {
  let depth = 0;
  for (const token of tokens) {
    if (OPENERS.has(token.tokenType)) {
      if (++depth > MAX_QUERY_NESTING) {
        const { line, column } = pos(token);
        throw new QueryError('query_nesting_depth', `brackets, parentheses, braces and CASE nest more than ${MAX_QUERY_NESTING} deep at line ${line}, column ${column}`, line, column, {
          limit: MAX_QUERY_NESTING,
          phase: 'compile',
        });
      }
    } else if (CLOSERS.has(token.tokenType) && depth > 0) depth--;
  }
}

/** What the nesting checks miss still must not escape as a RangeError: a stack overflow is a query too complex. */
function parseTokens(text: string, tokens: IToken[]): QueryAst {
  try {
    return parserInstance.parseText(text, tokens);
  } catch (error) {
    if (error instanceof RangeError) throw tooComplex();
    throw error;
  }
}

export function tooComplex(): QueryError {
  return new QueryError('query_too_complex', 'the query is too deeply nested or too large to process', 1, 1, { phase: 'compile' });
}

const startsOf = (rule: string) => new Set(parserInstance.computeContentAssist(rule, []).map((path) => path.nextTokenType));
const RULE_STARTS: RuleStarts = { atom: startsOf('atom'), expression: startsOf('expression'), clause: startsOf('clause') };

/**
 * What may follow a complete clause is worked out by chevrotain's content assist, which
 * walks the grammar over the tokens before: from the start of the last clause only (the
 * parse stopped at the top level, between clauses), and only for a clause this long, the
 * walk taking about 0.1–0.5 ms a token. Past that the error names what may follow any clause.
 */
export const MAX_CONTENT_ASSIST_TOKENS = 120;

/** Where the clause `tokens[index]` is in begins: its keyword, the last outside brackets closed before `index`. */
function clauseStart(tokens: IToken[], index: number): number {
  let start = index - 1;
  for (let depth = 0; start > 0; start--) {
    const type = tokens[start].tokenType;
    if (CLOSERS.has(type)) depth++;
    else if (OPENERS.has(type)) depth--;
    else if (depth <= 0 && RULE_STARTS.clause.has(type) && !(type === T.With && (tokens[start - 1].tokenType === T.Starts || tokens[start - 1].tokenType === T.Ends))) break;
  }
  return Math.max(start, 0);
}

/** What the grammar allows at `tokens[index]` after the tokens of its clause before it; undefined for a clause too long to walk. */
function allowedAt(tokens: IToken[], index: number): TokenType[] | undefined {
  const start = clauseStart(tokens, index);
  if (index - start > MAX_CONTENT_ASSIST_TOKENS) return undefined;
  return [...new Set(parserInstance.computeContentAssist('singleQuery', tokens.slice(start, index)).map((path) => path.nextTokenType))];
}

/** Tokens left over after a whole query parsed: a clause went on where it could not. */
function redundantInput(tokens: IToken[], index: number): QueryError {
  // after the closing ';' only the end may come
  if (tokens[index - 1]?.tokenType === T.Semicolon) return syntaxError(tokens, index, [T.EOF_TOKEN], RULE_STARTS);
  const after = [...RULE_STARTS.clause, T.Union, T.Semicolon, T.EOF_TOKEN];
  const within = allowedAt(tokens, index);
  if (within === undefined) {
    const clause = tokens[clauseStart(tokens, index)];
    return syntaxError(tokens, index, after, RULE_STARTS, { allowedAt, rest: [`more of the ${clause.image.toUpperCase()} clause at line ${clause.startLine}, column ${clause.startColumn}`] });
  }
  return syntaxError(tokens, index, [...new Set([...within, ...after])], RULE_STARTS, { allowedAt });
}
