import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorResponse } from '../../shared/errors.ts';
import { cacheHeaders } from './transport/cache-headers.ts';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** File-system errors of a full, read-only, unwritable or failing disk: the server's, and passing. */
const STORAGE_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EACCES', 'EPERM', 'ENOTDIR']);
/** Out of file descriptors: the process is overloaded, not broken. */
const OVERLOAD_FAULTS = new Set(['EMFILE', 'ENFILE']);

/** Seconds a client waits before trying again while the database cannot answer. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a database that is down, restarting, unreachable or not answering. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own codes for "not now": the connection failed (class 08), the server is shutting
 * down, crashed or starting (57P01-57P03), a statement timed out (57014), no connection slot is
 * left (53300), or a failover left us on a read-only standby (25006).
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|57014|53300|25006)$/;

/** node-postgres's errors of a connection lost, refused or timed out (they carry no code). */
const POSTGRES_CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed and is not queryable)/;

/** SQLite's primary result codes of a database busy elsewhere, full or failing: 5, 6, 10, 13. */
const SQLITE_UNAVAILABLE = new Set([5, 6, 10, 13]);

/**
 * Whether `error` (or what caused it) says the database cannot answer now, rather than that the
 * request or the code is wrong: the call is worth repeating in a few seconds.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, errcode, message, cause } = error as {
    code?: unknown;
    errcode?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    // Extended codes (SQLITE_BUSY_SNAPSHOT, …) carry the primary one in their low byte.
    return SQLITE_UNAVAILABLE.has(errcode & 0xff);
  }
  if (typeof code === 'string' && (UNREACHABLE.has(code) || POSTGRES_UNAVAILABLE.test(code))) {
    return true;
  }
  if (typeof message === 'string' && POSTGRES_CONNECTION_LOST.test(message)) return true;
  // A connection to a host of several addresses fails with each (an AggregateError).
  if (
    error instanceof AggregateError &&
    error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))
  ) {
    return true;
  }
  return isDatabaseUnavailable(cause, depth + 1);
}

/** An error meant for the caller: its message is shown as it is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: ErrorCode = CODE_BY_STATUS[statusCode] ?? 'BAD_REQUEST',
    /** Sent as `Retry-After` (seconds), for a 429 or a 503. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Answers `{ error, code }` with `status`, never cached: every error body of the app is made here. */
export function sendError(reply: FastifyReply, status: number, body: ErrorResponse): FastifyReply {
  // Headers a media answer may have set before failing must not describe the error body.
  reply.removeHeader('content-disposition');
  reply.removeHeader('content-length');
  if (status !== 416) reply.removeHeader('content-range');
  return cacheHeaders
    .noStore(reply.code(status).type('application/json; charset=utf-8'))
    .send(body);
}

/** A browser loading a page (not a call of the API): it is answered with a page, not JSON. */
function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?', 1)[0] ?? '';
  if (pathname.startsWith('/api/') || pathname === '/api') return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/** A limited page load: a small page that says when to retry, and reloads itself then. */
function sendLimitedPage(reply: FastifyReply, seconds: number): FastifyReply {
  const wait = `${seconds} second${seconds === 1 ? '' : 's'}`;
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="refresh" content="${seconds}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Too many requests</title></head><body>' +
    '<h1>Too many requests</h1>' +
    `<p>This connection asked for too many pages in a minute. Try again in ${wait}; ` +
    'this page reloads by itself then.</p></body></html>';
  return cacheHeaders
    .noStore(reply.code(429).type('text/html; charset=utf-8'))
    .header('retry-after', String(seconds))
    .send(html);
}

/** One error handler, one error shape: `{ error, code }`; 5xx never leak internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.warn({ err: error.cause ?? error }, error.message);
      if (error.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(error.retryAfterSeconds));
      }
      if (error.statusCode === 429 && wantsPage(request)) {
        return sendLimitedPage(reply, error.retryAfterSeconds ?? 60);
      }
      return sendError(reply, error.statusCode, { error: error.message, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const where = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
      const message = first?.message ?? 'Invalid request';
      return sendError(reply, 400, {
        error:
          where && !message.toLowerCase().includes(where.toLowerCase())
            ? `${where}: ${message}`
            : message,
        code: 'VALIDATION',
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, {
        error: error.message,
        code: CODE_BY_STATUS[status] ?? 'BAD_REQUEST',
      });
    }
    if (isDatabaseUnavailable(error)) {
      // Every call fails alike while it lasts: one line each, not a stack each.
      request.log.warn({ err: error }, 'the database cannot answer');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(reply, 503, {
        error: 'The database cannot be reached right now; try again in a few seconds',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    request.log.error({ err: error }, 'request failed');
    if (STORAGE_FAULTS.has(String((error as { code?: unknown }).code))) {
      reply.header('retry-after', '30');
      return sendError(reply, 503, {
        error: 'Files cannot be stored right now; try again in a moment',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    if (OVERLOAD_FAULTS.has(String((error as { code?: unknown }).code))) {
      reply.header('retry-after', '5');
      return sendError(reply, 503, {
        error: 'The server is too busy right now; try again in a few seconds',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    if (status === 503) {
      return sendError(reply, 503, {
        error: 'Service temporarily unavailable',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    return sendError(reply, 500, { error: 'Internal server error', code: 'INTERNAL' });
  });
}
