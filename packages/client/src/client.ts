import { ParleyConnectionError, ParleyTimeoutError, errorFromProblem } from './errors.ts';
import type * as T from './types.ts';

export interface ParleyOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (the `/v1` paths are added). */
  baseUrl: string;
  /** Sent as X-API-Key. */
  apiKey?: string;
  /** Limit of each call, retries and waits included (default 60,000 ms; 0 = none). */
  timeoutMs?: number;
  /** Retries of a 429, or of a 503 that says when to come back (Retry-After). */
  retry?: { attempts?: number; maxDelayMs?: number };
  /** The fetch to use (default: the global one); the CLI passes one that calls the app in-process. */
  fetch?: typeof fetch;
}

/** Every call takes these last. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface Request extends CallOptions {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Sent as is (JSON Lines); `body` is sent as JSON. */
  text?: string;
  contentType?: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_ATTEMPTS = 3;
const DEFAULT_MAX_DELAY_MS = 30_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or undefined. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

const segment = (value: string) => encodeURIComponent(value);

/**
 * The parley API. Each method is one HTTP call; errors are ParleyError (or
 * ParleyQueryError with line and column) carrying the problem+json fields.
 * 429, and 503 with Retry-After (a full queue), are retried after the time the
 * server asks for, at most `retry.attempts` times and never waiting longer than
 * `retry.maxDelayMs` at once; a 503 without Retry-After (a query past its limit)
 * is not retried, as the same call would hit the same limit.
 */
export class Parley {
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly maxDelayMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ParleyOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.attempts = options.retry?.attempts ?? DEFAULT_ATTEMPTS;
    this.maxDelayMs = options.retry?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  health(options?: CallOptions): Promise<T.Health> {
    return this.json({ method: 'GET', path: '/v1/health', ...options });
  }

  readonly workspaces = {
    create: (body: T.WorkspaceCreate, options?: CallOptions): Promise<T.Workspace> => this.json({ method: 'POST', path: '/v1/workspaces', body, ...options }),
    get: (id: string, options?: CallOptions): Promise<T.Workspace> => this.json({ method: 'GET', path: `/v1/workspaces/${segment(id)}`, ...options }),
    list: (page: T.PageQuery | { page_size?: number; page_token?: string } = {}, options?: CallOptions): Promise<T.WorkspaceList> =>
      this.json({ method: 'GET', path: '/v1/workspaces', query: page, ...options }),
    delete: (id: string, options?: CallOptions): Promise<void> => this.json({ method: 'DELETE', path: `/v1/workspaces/${segment(id)}`, ...options }),
  };

  readonly graphs = {
    list: (page: { page_size?: number; page_token?: string } = {}, options?: CallOptions): Promise<T.GraphList> =>
      this.json({ method: 'GET', path: '/v1/graphs', query: page, ...options }),
    get: (graphId: string, options?: CallOptions): Promise<T.GraphDetail> => this.json({ method: 'GET', path: `/v1/graphs/${segment(graphId)}`, ...options }),
    delete: (graphId: string, options?: CallOptions): Promise<void> => this.json({ method: 'DELETE', path: `/v1/graphs/${segment(graphId)}`, ...options }),
    /** Nodes and edges as an object, or JSON Lines text as export gives it. */
    import: (graphId: string, data: T.GraphImport | string, options?: CallOptions): Promise<T.ImportSummary> =>
      this.json({
        method: 'POST',
        path: `/v1/graphs/${segment(graphId)}/import`,
        ...(typeof data === 'string' ? { text: data, contentType: 'application/x-ndjson' } : { body: data }),
        ...options,
      }),
    /** The separate conflicts of the graph, each named by its main parties and places: their ids scope assess and analyze. */
    conflicts: (graphId: string, options?: CallOptions): Promise<T.ConflictList> => this.json({ method: 'GET', path: `/v1/graphs/${segment(graphId)}/conflicts`, ...options }),
    /** The graph as JSON Lines (one {"node": …} or {"edge": …} per line), which import reads back. */
    export: async (graphId: string, options?: CallOptions): Promise<string> =>
      (await this.send({ method: 'GET', path: `/v1/graphs/${segment(graphId)}/export`, ...options })).text(),
  };

  readonly keys = {
    create: (body: T.ApiKeyCreate, options?: CallOptions): Promise<T.NewApiKey> => this.json({ method: 'POST', path: '/v1/keys', body, ...options }),
    list: (options?: CallOptions): Promise<T.ApiKeyList> => this.json({ method: 'GET', path: '/v1/keys', ...options }),
    revoke: (keyId: string, options?: CallOptions): Promise<void> => this.json({ method: 'DELETE', path: `/v1/keys/${segment(keyId)}`, ...options }),
  };

  readonly frameworks = {
    list: (options?: CallOptions): Promise<T.FrameworkList> => this.json({ method: 'GET', path: '/v1/frameworks', ...options }),
    get: (id: string, options?: CallOptions): Promise<T.FrameworkDetail> => this.json({ method: 'GET', path: `/v1/frameworks/${segment(id)}`, ...options }),
  };

  /** Extracts from text; by default merges the result into the workspace's graph (`commit: false` to only look). */
  extract(workspaceId: string, body: T.ExtractRequest, options?: CallOptions): Promise<T.Extraction> {
    return this.json({ method: 'POST', path: `/v1/workspaces/${segment(workspaceId)}/extract`, body, ...options });
  }

  /** Ingests a document (a path under the server's corpora root, or `text` inline) into a graph. */
  ingest(graphId: string, body: T.IngestRequest, options?: CallOptions): Promise<T.Ingestion> {
    return this.json({ method: 'POST', path: `/v1/graphs/${segment(graphId)}/ingest`, body, ...options });
  }

  /**
   * A graph query: the pattern language as one string (`MATCH … RETURN …`), or
   * in parts, `{ match, where, return, include_provenance }`, whose errors name
   * the part (`field`) and the column in it.
   */
  query(graphId: string, query: string, request?: Omit<T.GraphQueryRequest, 'query' | 'graph_id'>, options?: CallOptions): Promise<T.GraphQueryResult>;
  query(graphId: string, parts: T.PatternQueryRequest, options?: CallOptions): Promise<T.GraphQueryResult>;
  query(
    graphId: string,
    query: string | T.PatternQueryRequest,
    second?: Omit<T.GraphQueryRequest, 'query' | 'graph_id'> | CallOptions,
    third?: CallOptions,
  ): Promise<T.GraphQueryResult> {
    if (typeof query === 'string') {
      return this.json({ method: 'POST', path: '/v1/graph/query', body: { ...second, query, graph_id: graphId }, ...third });
    }
    return this.json({ method: 'POST', path: `/v1/graphs/${segment(graphId)}/query`, body: query, ...(second as CallOptions | undefined) });
  }

  /** Runs every loaded framework (or those named) over the workspace's graph, ranked by fit; optionally the trajectory per period. */
  assess(workspaceId: string, body: T.AssessRequest = {}, options?: CallOptions): Promise<T.Assessment> {
    return this.json({ method: 'POST', path: `/v1/workspaces/${segment(workspaceId)}/assess`, body, ...options });
  }

  /** Answers a question in plain language with the frameworks it concerns, citing evidence. */
  analyze(workspaceId: string, question: string | T.AnalyzeRequest, options?: CallOptions): Promise<T.Analysis> {
    const body = typeof question === 'string' ? { query: question } : question;
    return this.json({ method: 'POST', path: `/v1/workspaces/${segment(workspaceId)}/analyze`, body, ...options });
  }

  /** The graph's contradicted claims and events, weighed: the disputed and rejected ones (or those of `status`), who asserts and denies each, on which sources. */
  disputes(graphId: string, request: { status?: string; as_of?: string; order?: 'id' | 'newest'; page_size?: number; page_token?: string } = {}, options?: CallOptions): Promise<T.DisputeList> {
    return this.json({ method: 'GET', path: `/v1/graphs/${segment(graphId)}/disputes`, query: request, ...options });
  }

  /** Corrects the graph (merge, retract, retype or set, with a reason); answers the correction's audit record. */
  correct(graphId: string, correction: T.CorrectionRequest, options?: CallOptions): Promise<T.Correction> {
    return this.json({ method: 'POST', path: `/v1/graphs/${segment(graphId)}/corrections`, body: correction, ...options });
  }

  /** The graph's corrections and their undos, newest first. */
  listCorrections(graphId: string, page: { page_size?: number; page_token?: string } = {}, options?: CallOptions): Promise<T.CorrectionList> {
    return this.json({ method: 'GET', path: `/v1/graphs/${segment(graphId)}/corrections`, query: page, ...options });
  }

  /** Undoes a correction; answers the undo's audit record. */
  undoCorrection(graphId: string, correctionId: string, options?: CallOptions): Promise<T.Correction> {
    return this.json({ method: 'DELETE', path: `/v1/graphs/${segment(graphId)}/corrections/${segment(correctionId)}`, ...options });
  }

  /** A node with its provenance and the corrections that touched it (an alias id finds the node it was merged into). */
  node(graphId: string, id: string, options?: CallOptions): Promise<T.NodeTrace> {
    return this.json({ method: 'GET', path: `/v1/graphs/${segment(graphId)}/nodes/${segment(id)}`, ...options });
  }

  /** An edge with its provenance and the corrections that touched it. */
  edge(graphId: string, id: string, options?: CallOptions): Promise<T.EdgeTrace> {
    return this.json({ method: 'GET', path: `/v1/graphs/${segment(graphId)}/edges/${segment(id)}`, ...options });
  }

  /** The nodes and edges whose confidence is below `below` (default 0.6), the newest recorded first: what a review queue lists. */
  lowConfidence(graphId: string, request: { below?: number; as_of?: string; page_size?: number; page_token?: string } = {}, options?: CallOptions): Promise<T.LowConfidenceList> {
    return this.json({ method: 'GET', path: `/v1/graphs/${segment(graphId)}/low-confidence`, query: request, ...options });
  }

  private async json<R>(request: Request): Promise<R> {
    const response = await this.send(request);
    return (response.status === 204 ? undefined : await response.json()) as R;
  }

  /** One call: retries as the class describes, within one timeout for all attempts. */
  private async send(request: Request): Promise<Response> {
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signals = [request.signal, timeout].filter((signal): signal is AbortSignal => signal !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal;
    const url = new URL(this.baseUrl + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json, application/x-ndjson' };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    let body: string | undefined;
    if (request.text !== undefined) {
      body = request.text;
      headers['content-type'] = request.contentType ?? 'text/plain';
    } else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method: request.method, headers, ...(body !== undefined ? { body } : {}), signal });
      } catch (error) {
        if (timeout?.aborted && !request.signal?.aborted) throw new ParleyTimeoutError(timeoutMs);
        if (request.signal?.aborted) throw request.signal.reason;
        throw new ParleyConnectionError(`${request.method} ${url.pathname}: ${(error as Error).message}`, error);
      }
      if (response.ok) return response;

      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      const problem = await this.problemOf(response);
      const retryable = response.status === 429 || (response.status === 503 && retryAfter !== undefined);
      const delayMs = (retryAfter ?? 1) * 1000;
      if (!retryable || attempt + 1 >= this.attempts || delayMs > this.maxDelayMs) throw errorFromProblem(problem, retryAfter);
      try {
        await sleep(delayMs, signal);
      } catch (reason) {
        if (timeout?.aborted && !request.signal?.aborted) throw new ParleyTimeoutError(timeoutMs);
        throw reason;
      }
    }
  }

  private async problemOf(response: Response): Promise<T.Problem> {
    const text = await response.text();
    try {
      const body = JSON.parse(text);
      if (body && typeof body.code === 'string' && typeof body.status === 'number') return body;
    } catch {
      // not a problem document: described below
    }
    return { type: 'about:blank', title: response.statusText, status: response.status, code: 'http_error', detail: text.slice(0, 500) || response.statusText };
  }
}
