import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ParleyError, type ErrorKind } from '../engine/errors.ts';

/**
 * The one mapping from errors to HTTP problem+json (RFC 9457). Every error body is
 * `{type, title, status, detail, code, ...details}`; `code` is stable and machine
 * readable, `type` a URI naming it.
 */

const STATUS: Record<ErrorKind, number> = {
  validation: 400,
  query: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  limit: 503,
  overloaded: 503,
  runtime: 500,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [member: string]: unknown;
}

export function problem(status: number, code: string, detail: string, extra: Record<string, unknown> = {}): Problem {
  return { type: `https://parley.dev/problems/${code.replace(/[^a-z0-9_.-]/gi, '_')}`, title: TITLES[status] ?? 'Error', status, detail, code, ...extra };
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** A request-validation failure, naming the field and, for enums, the allowed values. */
function validationProblem(issues: AjvIssue[], context: string | undefined): Problem {
  const issue = issues[0];
  const base = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = context === 'body' ? '' : `${context ?? 'request'} `;
  switch (issue.keyword) {
    case 'required': {
      const field = [base, issue.params.missingProperty].filter(Boolean).join('.');
      return problem(400, 'missing_field', `${where}field '${field}' is required`, { field });
    }
    case 'additionalProperties': {
      const field = [base, issue.params.additionalProperty].filter(Boolean).join('.');
      return problem(400, 'unknown_field', `${where}field '${field}' is not allowed`, { field });
    }
    case 'enum': {
      const allowed = issue.params.allowedValues as unknown[];
      return problem(400, 'invalid_value', `${where}field '${base}' must be one of: ${allowed.join(', ')}`, { field: base, allowed });
    }
    case 'type':
      return problem(400, 'invalid_type', `${where}field '${base || '(root)'}' must be ${issue.params.type}`, { field: base });
    default:
      return problem(400, 'invalid_value', `${where}field '${base || '(root)'}' ${issue.message ?? 'is invalid'}`, { field: base });
  }
}

export function toProblem(error: unknown): Problem {
  if (error instanceof ParleyError) {
    return problem(STATUS[error.kind], error.code, error.message, error.details);
  }
  const fastifyError = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (fastifyError.validation) return validationProblem(fastifyError.validation, fastifyError.validationContext);
  const status = fastifyError.statusCode;
  if (fastifyError.code === 'FST_ERR_BAD_URL') return problem(400, 'bad_url', 'the URL path is not valid (a malformed percent-encoding?)');
  if (fastifyError.code === 'FST_ERR_MAX_PARAM_LENGTH') return problem(414, 'path_parameter_too_long', 'a path parameter is longer than the router accepts', { limit: MAX_PARAM_LENGTH });
  if (status === 413) return problem(413, 'body_too_large', 'the request body is larger than the limit', {});
  if (status === 415) return problem(415, 'unsupported_media_type', fastifyError.message);
  if (status === 400 && (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError instanceof SyntaxError || /JSON/.test(fastifyError.message))) {
    return problem(400, 'malformed_json', `the body is not valid JSON: ${fastifyError.message}`);
  }
  if (status === 400 && fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return problem(400, 'malformed_json', 'the body is empty but declared as JSON');
  if (status !== undefined && status >= 400 && status < 500) return problem(status, (fastifyError.code ?? 'bad_request').toLowerCase(), fastifyError.message);
  return problem(500, 'internal_error', 'an unexpected error occurred; it has been logged');
}

/** Longest path parameter the router matches (fastify's maxParamLength); ids are at most 256 characters. */
export const MAX_PARAM_LENGTH = 300;

/**
 * Errors node's HTTP parser raises before fastify sees a request (headers too large,
 * a malformed request line, a client too slow): answered on the socket, in the same
 * problem+json shape, then the connection is closed.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const body =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problem(431, 'headers_too_large', 'the request line and headers are larger than the server accepts (a very long URL or query string?)', { limit_bytes: maxHeaderSize })
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problem(408, 'request_timeout', 'the request did not arrive in time')
        : problem(400, 'malformed_request', 'the request is not valid HTTP');
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  }
  socket.destroy(error);
}

export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  return reply.code(body.status).type('application/problem+json').send(body);
}

/** Seconds a client should wait before retrying a refused (overloaded) request. */
export const RETRY_AFTER_SECONDS = 1;

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const body = toProblem(error);
  if (error instanceof ParleyError && error.kind === 'overloaded') reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
  // the server's faults, unexpected or typed (kind 'runtime'); a 503 is a limit or a full queue, working as meant
  if (body.status === 500) request.log.error({ err: error }, 'server fault');
  return sendProblem(reply, body);
}
