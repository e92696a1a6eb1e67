import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.ts';
import { type ScheduleFetchOptions, fetchScheduleText, isPublicAddress } from './schedule-fetch.ts';

/** A local server: each path answers as the test needs. */
let server: http.Server;
let port = 0;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    hits.push(url.pathname);
    const hops = Number(url.searchParams.get('hops') ?? 0);
    switch (url.pathname) {
      case '/schedule.xml':
        response.setHeader('content-type', 'application/xml');
        response.end('\uFEFF<schedule/>');
        return;
      case '/redirect':
        response.statusCode = 302;
        response.setHeader(
          'location',
          hops > 1 ? `/redirect?hops=${hops - 1}` : (url.searchParams.get('to') ?? '/schedule.xml'),
        );
        response.end();
        return;
      case '/big':
        response.setHeader('content-length', String(5 * 1024 * 1024));
        response.end();
        return;
      case '/stream': {
        // No length announced: the body is cut off as it arrives.
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const write = () => {
          while (sent < 100 && response.write(chunk)) sent += 1;
          if (sent < 100) response.once('drain', write);
          else response.end();
        };
        write();
        return;
      }
      case '/silent':
        return; // never answers
      default:
        response.statusCode = 404;
        response.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const allowed: ScheduleFetchOptions = {
  allowedHosts: ['127.0.0.1'],
  timeoutMs: 2_000,
  maxBytes: 1024 * 1024,
  maxRedirects: 3,
};
const strict: ScheduleFetchOptions = { ...allowed, allowedHosts: [] };

async function refusal(
  run: Promise<unknown>,
): Promise<{ status: number; code: string; message: string }> {
  try {
    await run;
  } catch (error) {
    if (error instanceof HttpError) {
      return { status: error.statusCode, code: error.code, message: error.message };
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('fetching a schedule from an address', () => {
  it('fetches from an allowed host, without the byte-order mark', async () => {
    await expect(fetchScheduleText(`http://127.0.0.1:${port}/schedule.xml`, allowed)).resolves.toBe(
      '<schedule/>',
    );
  });

  it('follows up to 3 redirects, and refuses the 4th', async () => {
    await expect(
      fetchScheduleText(`http://127.0.0.1:${port}/redirect?hops=3`, allowed),
    ).resolves.toBe('<schedule/>');
    expect(
      await refusal(fetchScheduleText(`http://127.0.0.1:${port}/redirect?hops=4`, allowed)),
    ).toEqual({
      status: 400,
      code: 'SCHEDULE_URL_REFUSED',
      message: 'The schedule could not be fetched: more than 3 redirects',
    });
  });

  it('checks every redirect again: to a host not allowed, to another scheme', async () => {
    const toLocalhost = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(`http://localhost:${port}/schedule.xml`)}`;
    expect((await refusal(fetchScheduleText(toLocalhost, allowed))).message).toMatch(
      /^The schedule's address is refused: localhost is on the server's own network \((127\.0\.0\.1|::1)\)$/,
    );
    const toFile = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`;
    expect((await refusal(fetchScheduleText(toFile, allowed))).message).toBe(
      "The schedule's address is refused: only http and https addresses are fetched, not file",
    );
  });

  it.each([
    ['file:///etc/passwd', 'only http and https addresses are fetched, not file'],
    ['ftp://example.org/schedule.xml', 'only http and https addresses are fetched, not ftp'],
    ['javascript:alert(1)', 'only http and https addresses are fetched, not javascript'],
    ['not a url', '"not a url" is not a URL'],
    ['http://user:secret@example.org/', 'an address with a user name or password'],
  ])('refuses %s', async (address, message) => {
    expect(await refusal(fetchScheduleText(address, strict))).toEqual({
      status: 400,
      code: 'SCHEDULE_URL_REFUSED',
      message: `The schedule's address is refused: ${message}`,
    });
  });

  it.each([
    `http://127.0.0.1:PORT/schedule.xml`,
    `http://[::1]:PORT/schedule.xml`,
    `http://[::ffff:127.0.0.1]:PORT/schedule.xml`,
    `http://0.0.0.0:PORT/schedule.xml`,
    `http://2130706433:PORT/schedule.xml`,
    'http://10.1.2.3/schedule.xml',
    'http://192.168.1.1/schedule.xml',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/schedule.xml',
    'http://[fe80::1]/schedule.xml',
  ])('refuses %s, on the server’s own network, unless allowed', async (template) => {
    const before = hits.length;
    const refused = await refusal(
      fetchScheduleText(template.replace('PORT', String(port)), strict),
    );
    expect(refused.code).toBe('SCHEDULE_URL_REFUSED');
    expect(refused.message).toMatch(/is on the server's own network/);
    expect(hits.length).toBe(before);
  });

  it('refuses a name that resolves to the server’s own network (checked at connection)', async () => {
    const before = hits.length;
    const refused = await refusal(
      fetchScheduleText(`http://localhost:${port}/schedule.xml`, strict),
    );
    expect(refused.message).toMatch(/localhost is on the server's own network/);
    expect(hits.length).toBe(before);
  });

  it('refuses a body past the limit, announced or streamed', async () => {
    const small = { ...allowed, maxBytes: 1024 * 1024 };
    for (const path of ['/big', '/stream']) {
      expect(await refusal(fetchScheduleText(`http://127.0.0.1:${port}${path}`, small))).toEqual({
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The schedule is larger than 1 MB',
      });
    }
  });

  it('gives up after the timeout', async () => {
    const started = Date.now();
    const refused = await refusal(
      fetchScheduleText(`http://127.0.0.1:${port}/silent`, { ...allowed, timeoutMs: 300 }),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(refused.message).toBe(
      `The schedule could not be fetched: 127.0.0.1:${port} did not answer within 300 ms`,
    );
  });

  it('says what the server answered', async () => {
    expect(
      (await refusal(fetchScheduleText(`http://127.0.0.1:${port}/missing`, allowed))).message,
    ).toBe(`The schedule could not be fetched: 127.0.0.1:${port} answered 404`);
  });
});

describe('which addresses are public', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['172.32.0.1', true],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['::', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::a00:1', false],
    ['fd12:3456::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['not an address', false],
  ])('%s: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
