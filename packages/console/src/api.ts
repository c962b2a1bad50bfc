// The public /v1 API with the key from the form. Every failure becomes an ApiError carrying the
// problem+json fields (code, detail, line, column), so each view can say what went wrong.

export interface Problem {
  status: number;
  code: string;
  title?: string;
  detail?: string;
  field?: string;
  line?: number;
  column?: number;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? problem.code);
  }
  get status(): number {
    return this.problem.status;
  }
}

const KEY_ITEM = 'parley.api_key';

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY_ITEM),
  keep: (key: string): void => sessionStorage.setItem(KEY_ITEM, key),
  forget: (): void => sessionStorage.removeItem(KEY_ITEM),
};

export async function api<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, key = session.key()): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers['x-api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError({ status: 0, code: 'unreachable', detail: 'The server could not be reached. Is it running?' });
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const problem = (parsed && typeof parsed === 'object' ? parsed : {}) as Partial<Problem>;
    throw new ApiError({ ...problem, status: response.status, code: problem.code ?? `http_${response.status}`, detail: problem.detail ?? (text.slice(0, 200) || response.statusText) });
  }
  return parsed as T;
}

/** What to tell the user, in words, for a failed request. */
export function describe(error: unknown, signingIn = false): string {
  if (!(error instanceof ApiError)) return `Something went wrong in the console: ${error instanceof Error ? error.message : String(error)}`;
  const { status, code, detail } = error.problem;
  if (status === 401) {
    return signingIn
      ? 'That API key was not accepted (401). Check it, or ask an administrator for a new one.'
      : 'Your session has expired: the API key is no longer accepted (401: revoked or unknown). Enter a key to go on.';
  }
  if (status === 403) return `This key may not do that (403 ${code}): ${detail ?? ''}`.trim();
  if (status === 0) return detail ?? 'The server could not be reached.';
  if (status >= 500) return `The server failed to answer (${status} ${code})${detail ? `: ${detail.replace(/[.!?]?$/, '.')}` : '.'} Try again; if it persists, tell the operator.`;
  if (status === 429) return 'Too many requests (429): wait a moment and try again.';
  return `${detail ?? code} (${status} ${code})`;
}
