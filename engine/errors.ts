/**
 * Typed errors raised by the engine. Each carries a stable machine-readable `code`;
 * server/problems.ts is the one module that maps them to HTTP problem+json.
 */

export type ErrorKind =
  | 'validation' // 400: a request or record that breaks the rules
  | 'query' // 400: a query that does not lex, parse or pass semantic analysis
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404 (also: another tenant's resource)
  | 'conflict' // 409
  | 'too_large' // 413
  | 'limit' // 503: a query or job past its time, row or inference limit
  | 'overloaded' // 503: a bounded queue is full
  | 'runtime'; // 500: the runtime lacks what the request needs, a fault of the deployment that no retry mends

export class ParleyError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    /** Extra members for the problem document (e.g. `field`, `line`, `column`, `expected`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends ParleyError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super('validation', code, message, details);
  }
}

export class NotFoundError extends ParleyError {
  constructor(what: string, id: string) {
    super('not_found', `${what}_not_found`, `${what.replace(/_/g, ' ')} '${id}' does not exist`, { [what + '_id']: id });
  }
}

export class ConflictError extends ParleyError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super('conflict', code, message, details);
  }
}

export class LimitError extends ParleyError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super('limit', code, message, details);
  }
}

export class OverloadedError extends ParleyError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super('overloaded', code, message, details);
  }
}

export class TooLargeError extends ParleyError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super('too_large', code, message, details);
  }
}

/** `UnexpectedSyntax` → `unexpected_syntax`: every error code in the API is snake_case. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

/** A query error: where in the query text, and what the parser expected there. */
export class QueryError extends ParleyError {
  /**
   * An error the openCypher TCK names `<tckType>.<tckDetail>`: the code is the
   * detail in snake_case (`undefined_variable`), the TCK's names stay in the details.
   */
  static tck(tckType: string, tckDetail: string, message: string, position: { line: number; column: number }, details: Record<string, unknown> = {}): QueryError {
    return new QueryError(snakeCase(tckDetail), message, position.line, position.column, { tck_type: tckType, tck_detail: tckDetail, ...details });
  }

  constructor(
    code: string,
    message: string,
    readonly line: number,
    readonly column: number,
    details: Record<string, unknown> = {},
  ) {
    super('query', code, message, { line, column, ...details });
  }
}

/** Why something failed, as a batch reports it: the error's code and message (an error's class does not cross threads, these do). */
export function failureOf(error: unknown): { code: string; reason: string } {
  const code = error instanceof ParleyError ? error.code : ((error as NodeJS.ErrnoException)?.code ?? 'internal');
  return { code, reason: error instanceof Error ? error.message : String(error) };
}
