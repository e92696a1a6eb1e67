import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  errorMessage,
  isRetryLater,
  parseRetryAfter,
  readResponse,
} from './api-client.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('reading an answer', () => {
  it('parses a success with the schema of the answer', async () => {
    const schema = z.object({ message: z.string() });
    await expect(readResponse(schema, json(200, { message: 'ok' }))).resolves.toEqual({
      message: 'ok',
    });
  });

  it("turns an error answer into an ApiError with the server's own text and code", async () => {
    const error = await readResponse(
      z.unknown(),
      json(404, { error: 'Speaker not found', code: 'NOT_FOUND' }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Speaker not found',
      serverMessage: 'Speaker not found',
    });
  });

  it('names the status of an error answer without the error shape', async () => {
    const error = await readResponse(
      z.unknown(),
      new Response('<h1>Bad gateway</h1>', { status: 502 }),
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, message: 'Request failed (502)' });
    expect((error as ApiError).serverMessage).toBeUndefined();
  });
});

describe('errorMessage', () => {
  it("shows the server's own error, and the caller's text for anything else", () => {
    const fromServer = new ApiError(429, { error: 'Too many questions, slow down' });
    expect(errorMessage(fromServer, 'Login failed.')).toBe('Too many questions, slow down');
    expect(errorMessage(new ApiError(0), 'Login failed.')).toBe('Login failed.');
    expect(errorMessage(new ApiError(502), 'Login failed.')).toBe('Login failed.');
    expect(errorMessage(new Error('parse error'), 'Login failed.')).toBe('Login failed.');
    expect(new ApiError(0).message).toBe('Network error: check your connection and try again.');
  });
});

describe('an answer that asks to try again later', () => {
  it('carries its Retry-After, in seconds or as a date', async () => {
    const error = await readResponse(
      z.unknown(),
      new Response(JSON.stringify({ error: 'Busy', code: 'SERVICE_UNAVAILABLE' }), {
        status: 503,
        headers: { 'retry-after': '5' },
      }),
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 503, retryAfterSeconds: 5 });
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(parseRetryAfter('Fri, 27 Nov 2026 10:00:12 GMT', now)).toBe(12);
    expect(parseRetryAfter('Fri, 27 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('is told from a refusal: 408, 425, 429, 502, 503 and 504 only', () => {
    for (const status of [408, 425, 429, 502, 503, 504]) {
      expect(isRetryLater(new ApiError(status))).toBe(true);
    }
    for (const status of [0, 400, 401, 403, 404, 409, 413, 415, 500]) {
      expect(isRetryLater(new ApiError(status))).toBe(false);
    }
    expect(isRetryLater(new Error('503'))).toBe(false);
  });
});
