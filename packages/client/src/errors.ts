import type { Problem } from './types.ts';

/**
 * An error answer of the API (application/problem+json), with its fields as
 * properties: `status`, `code` (stable, snake_case), `title`, `detail`, and for
 * request-validation errors `field`. `problem` is the whole body.
 */
export class ParleyError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  readonly field: string | undefined;
  /** Seconds the server asked to wait (Retry-After), on 429 and an overloaded 503. */
  readonly retryAfter: number | undefined;

  constructor(readonly problem: Problem, retryAfter?: number) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = new.target.name;
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.type = problem.type;
    this.field = problem.field;
    this.retryAfter = retryAfter;
  }
}

/** A query that does not lex, parse or compile (400): where it broke and what was expected there. */
export class ParleyQueryError extends ParleyError {
  readonly line: number;
  readonly column: number;
  readonly expected: string | undefined;
  readonly found: string | undefined;
  /** Keywords a misspelt word may have meant, nearest first (`RETRUN` → `['RETURN']`); empty when none is near. */
  readonly suggestions: string[];

  constructor(problem: Problem & { line: number; column: number }) {
    super(problem);
    this.line = problem.line;
    this.column = problem.column;
    this.expected = problem.expected;
    this.found = problem.found;
    this.suggestions = problem.suggestions ?? [];
  }
}

/** No answer: the connection failed, or the call's timeout ran out. */
export class ParleyConnectionError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'ParleyConnectionError';
  }
}

export class ParleyTimeoutError extends ParleyConnectionError {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'ParleyTimeoutError';
  }
}

/** The typed error for a problem body: query errors (they carry a line and a column) get their own class. */
export function errorFromProblem(problem: Problem, retryAfter?: number): ParleyError {
  if (problem.status === 400 && typeof problem.line === 'number' && typeof problem.column === 'number') {
    return new ParleyQueryError(problem as Problem & { line: number; column: number });
  }
  return new ParleyError(problem, retryAfter);
}
