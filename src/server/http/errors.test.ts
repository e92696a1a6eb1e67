import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors.ts';

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
