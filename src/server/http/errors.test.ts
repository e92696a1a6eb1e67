import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type HttpError,
  badRequest,
  conflict,
  forbidden,
  idempotencyKeyReused,
  invalid,
  isDatabaseUnavailable,
  malformed,
  notFound,
  proofRequired,
  rateLimited,
  rawErrorAnswer,
  tooLarge,
  tooManyRequests,
  unauthorized,
  unavailable,
  unsupported,
} from './errors.ts';

const answer = (error: HttpError) => ({
  status: error.statusCode,
  body: { error: error.message, code: error.code },
  retryAfter: error.retryAfterSeconds,
});

describe('error factories', () => {
  it('make each refusal with its status, its message and its code', () => {
    expect(answer(notFound('memory'))).toEqual({
      status: 404,
      body: { error: 'Memory not found', code: 'NOT_FOUND' },
      retryAfter: undefined,
    });
    expect(answer(notFound('route', 'GET', '/nowhere')).body.error).toBe('Not found: GET /nowhere');
    expect(answer(forbidden('askAsYourself')).body).toEqual({
      error: 'You can only ask as yourself',
      code: 'FORBIDDEN',
    });
    expect(answer(unauthorized('adminInvalid')).body).toEqual({
      error: 'Invalid admin token',
      code: 'UNAUTHORIZED',
    });
    expect(unauthorized('expired').message).toBe('Your session has expired; sign in again');
    expect(answer(invalid('schema', undefined, 'memory')).body).toEqual({
      error: 'Invalid memory',
      code: 'VALIDATION',
    });
    expect(invalid('schema', 'Caption is too long', 'memory').message).toBe('Caption is too long');
    expect(answer(badRequest('proof', 'expired'))).toMatchObject({
      status: 400,
      body: { code: 'PROOF_INVALID' },
    });
    expect(answer(conflict('proofUsed'))).toMatchObject({
      status: 409,
      body: { code: 'PROOF_INVALID' },
    });
    expect(answer(conflict('nameBeingTaken'))).toMatchObject({ body: { code: 'CONFLICT' } });
    expect(answer(proofRequired('proof'))).toMatchObject({
      status: 428,
      body: { code: 'PROOF_REQUIRED' },
    });
    expect(answer(idempotencyKeyReused('reused'))).toMatchObject({
      status: 422,
      body: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
    expect(answer(tooLarge('uploadsFull', '12.5'))).toMatchObject({
      status: 413,
      body: {
        error:
          'The server has no room for another 12.5 MB upload right now; try again in a few minutes.',
        code: 'UPLOADS_FULL',
      },
    });
    expect(answer(tooManyRequests('unfinishedUploads', 1))).toMatchObject({
      status: 429,
      body: {
        error: 'You have 1 unfinished upload; finish or cancel one before starting another.',
        code: 'TOO_MANY_UPLOADS',
      },
    });
    expect(tooManyRequests('loginAttempts', 1).message).toBe(
      'Too many failed login attempts. Try again in 1 second.',
    );
    expect(tooManyRequests('loginAttempts', 61).message).toBe(
      'Too many failed login attempts. Try again in 2 minutes.',
    );
    expect(answer(unsupported('notMultipart'))).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect(badRequest('tooManyPixels', 'a.jpg', 0, 0, '100 megapixels').message).toBe(
      'a.jpg is too large: pictures of up to 100 megapixels are accepted.',
    );
    expect(badRequest('tooManyPixels', 'a.jpg', 20_000, 10_000, '100 megapixels').message).toBe(
      'a.jpg is too large (20000×10000, 200 megapixels): pictures of up to 100 megapixels are accepted.',
    );
  });

  it('give a 429 of a rate limit and a 503 their Retry-After', () => {
    expect(answer(rateLimited('wait', 7))).toEqual({
      status: 429,
      body: { error: 'Too many requests; try again in 7 seconds', code: 'RATE_LIMITED' },
      retryAfter: 7,
    });
    expect(answer(unavailable('databaseUnreachable'))).toEqual({
      status: 503,
      body: {
        error: 'The database cannot be reached right now; try again in a few seconds',
        code: 'SERVICE_UNAVAILABLE',
      },
      retryAfter: 5,
    });
    expect(unavailable('storage').retryAfterSeconds).toBe(30);
    expect(unavailable('database').retryAfterSeconds).toBeUndefined();
    expect(unavailable('busy').retryAfter(3).retryAfterSeconds).toBe(3);
  });

  it('answer on a raw socket with the same body, the given headers first', () => {
    expect(rawErrorAnswer(malformed('headersTooLarge'), { 'x-frame-options': 'DENY' })).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\n' +
        'x-frame-options: DENY\r\n' +
        'content-type: application/json; charset=utf-8\r\n' +
        'content-length: 66\r\n' +
        'cache-control: no-store\r\n' +
        'connection: close\r\n\r\n' +
        '{"error":"The request headers are too large","code":"BAD_REQUEST"}',
    );
    expect(rawErrorAnswer(unavailable('connections'), {})).toContain('\r\nretry-after: 5\r\n');
  });

  it('write each message once: no other source file of the server quotes one', () => {
    const messages = [
      notFound('memory'),
      notFound('question'),
      notFound('upload'),
      notFound('media'),
      forbidden('notYourMemory'),
      forbidden('crossOrigin'),
      unauthorized('joinFirst'),
      unauthorized('adminMissing'),
      conflict('postBeingSent'),
      unavailable('busy'),
      unavailable('storage'),
      unavailable('connections'),
      malformed('url'),
    ].map((error) => error.message);
    // Code quotes its texts in single quotes or backticks; a comment may name one in prose.
    const server = path.join(import.meta.dirname, '..');
    const sources = readdirSync(server, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => path.join(server, file) !== path.join(import.meta.dirname, 'errors.ts'))
      .map((file) => readFileSync(path.join(server, file), 'utf8'));
    for (const message of messages) {
      expect(
        sources.filter((source) => ["'", '`'].some((q) => source.includes(q + message + q))),
        message,
      ).toEqual([]);
    }
  });
});

/** An error as a driver makes it: a message and its own fields. */
const driverError = (message: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), fields);

describe('isDatabaseUnavailable', () => {
  it('recognises a PostgreSQL that is down, restarting, out of slots or not answering', () => {
    for (const error of [
      driverError('Connection terminated unexpectedly'),
      driverError('Connection terminated due to connection timeout'),
      driverError('timeout exceeded when trying to connect'),
      driverError('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }),
      driverError('read ECONNRESET', { code: 'ECONNRESET' }),
      driverError('getaddrinfo EAI_AGAIN db', { code: 'EAI_AGAIN' }),
      new AggregateError([driverError('connect ECONNREFUSED ::1:5432', { code: 'ECONNREFUSED' })]),
      driverError('terminating connection due to administrator command', { code: '57P01' }),
      driverError('the database system is starting up', { code: '57P03' }),
      driverError('canceling statement due to statement timeout', { code: '57014' }),
      driverError('sorry, too many clients already', { code: '53300' }),
      driverError('connection failure', { code: '08006' }),
      driverError('cannot execute INSERT in a read-only transaction', { code: '25006' }),
      new Error('The question could not be saved', {
        cause: driverError('Connection terminated unexpectedly'),
      }),
    ]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    }
  });

  it('recognises a SQLite database locked by another process, full or failing', () => {
    const sqlite = (errcode: number, errstr: string) =>
      driverError(errstr, { code: 'ERR_SQLITE_ERROR', errcode, errstr });
    expect(isDatabaseUnavailable(sqlite(5, 'database is locked'))).toBe(true);
    expect(isDatabaseUnavailable(sqlite(517, 'database is locked'))).toBe(true); // BUSY_SNAPSHOT
    expect(isDatabaseUnavailable(sqlite(6, 'database table is locked'))).toBe(true);
    expect(isDatabaseUnavailable(sqlite(13, 'database or disk is full'))).toBe(true);
    expect(isDatabaseUnavailable(sqlite(10, 'disk I/O error'))).toBe(true);
    // A broken rule or a bad statement is a fault of the code: a 500, not worth repeating.
    expect(isDatabaseUnavailable(sqlite(19, 'UNIQUE constraint failed'))).toBe(false);
    expect(isDatabaseUnavailable(sqlite(2067, 'UNIQUE constraint failed'))).toBe(false);
    expect(isDatabaseUnavailable(sqlite(1, 'no such table: nothing'))).toBe(false);
  });

  it('leaves every other failure alone', () => {
    for (const error of [
      new Error('Cannot read properties of undefined'),
      driverError('duplicate key value violates unique constraint', { code: '23505' }),
      driverError('syntax error at or near "selec"', { code: '42601' }),
      driverError('no space left on device', { code: 'ENOSPC' }),
      'a string',
      null,
      undefined,
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});
