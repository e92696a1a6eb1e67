import { Client } from 'undici';
import { describe, expect, it } from 'vitest';
import { CLIENT_ID_HEADER } from '../shared/constants.ts';
import { PLAIN_PAGE, useTestApp } from '../../tests/support/test-app.ts';

const ATTENDEES = 2_000;
const AT_ONCE = 100;
const PAGE = { accept: 'text/html,application/xhtml+xml' };

/**
 * A conference on venue Wi-Fi: every attendee comes from the same address (the venue's NAT),
 * each on a connection of their own, as each phone is; one hostile client on the same address
 * floods unknown paths meanwhile.
 */
describe('2,000 attendees behind one address', () => {
  const t = useTestApp({
    client: { 'index.html': PLAIN_PAGE, 'assets/app-abc123.js': 'console.log(1);' },
  });

  it('all load the join page and /home and start polling, with no 429 and no error, while a flood from the same address is limited alone', async () => {
    const started = Date.now();
    const statuses = new Map<string, number>();
    const count = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1);

    const flooding = { on: true };
    const hostile = new Client(t.url, { pipelining: 1 });
    const hostileAnswers = { ok: 0, limited: 0, html: 0, retryAfter: 0 };
    const flood = (async () => {
      let n = 0;
      while (flooding.on) {
        const answer = await hostile.request({
          path: `/wp-admin/probe-${n++}.php`,
          method: 'GET',
          headers: PAGE,
        });
        const body = await answer.body.text();
        if (answer.statusCode === 429) {
          hostileAnswers.limited += 1;
          if (String(answer.headers['content-type']).startsWith('text/html')) {
            hostileAnswers.html += 1;
          }
          if (body.includes('Try again in') && Number(answer.headers['retry-after']) > 0) {
            hostileAnswers.retryAfter += 1;
          }
        } else hostileAnswers.ok += 1;
      }
    })();

    const attendee = async (index: number) => {
      const phone = new Client(t.url, { pipelining: 1 });
      try {
        const get = async (path: string, headers: Record<string, string> = {}) => {
          const answer = await phone.request({ path, method: 'GET', headers });
          await answer.body.arrayBuffer();
          count(`${path.split('?')[0] ?? ''} ${answer.statusCode}`);
          return answer;
        };
        await get('/', PAGE);
        await get('/assets/app-abc123.js');
        await get('/home', PAGE);
        const id = { [CLIENT_ID_HEADER]: `attendee-${index}` };
        await get('/api/config', id);
        const first = await get('/api/memory', id);
        const tag = String(first.headers.etag ?? '');
        await get('/api/memory', { ...id, 'if-none-match': tag });
      } finally {
        await phone.close();
      }
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < ATTENDEES) await attendee(next++);
      }),
    );
    const tookMs = Date.now() - started;
    flooding.on = false;
    await flood;
    await hostile.close();

    console.log(
      `[venue] ${ATTENDEES} attendees in ${tookMs} ms:`,
      Object.fromEntries(statuses),
      'hostile:',
      hostileAnswers,
    );
    expect(Object.fromEntries(statuses)).toEqual({
      '/ 200': ATTENDEES,
      '/assets/app-abc123.js 200': ATTENDEES,
      '/home 200': ATTENDEES,
      '/api/config 200': ATTENDEES,
      '/api/memory 200': ATTENDEES,
      '/api/memory 304': ATTENDEES,
    });
    expect(tookMs).toBeLessThan(5 * 60_000);
    // The flood got its allowance, then a page saying when to retry.
    expect(hostileAnswers.ok).toBe(t.config.pageRateLimit);
    expect(hostileAnswers.limited).toBeGreaterThan(0);
    expect(hostileAnswers.html).toBe(hostileAnswers.limited);
    expect(hostileAnswers.retryAfter).toBe(hostileAnswers.limited);
  }, 300_000);

  it('a limited API call still answers JSON', async () => {
    const client = new Client(t.url, { pipelining: 1 });
    try {
      let last = 0;
      let body = '';
      for (let i = 0; i <= t.config.pageRateLimit; i += 1) {
        const answer = await client.request({ path: `/api/nope-${i}`, method: 'GET' });
        body = await answer.body.text();
        last = answer.statusCode;
      }
      expect(last).toBe(429);
      expect(JSON.parse(body)).toMatchObject({ code: 'RATE_LIMITED' });
    } finally {
      await client.close();
    }
  });
});

describe('HEAD /', () => {
  const t = useTestApp({ client: { 'index.html': PLAIN_PAGE } });

  it('answers 200 like GET, without a body (what uptime checks send)', async () => {
    for (const accept of [undefined, 'text/html']) {
      const response = await fetch(`${t.url}/`, {
        method: 'HEAD',
        headers: accept ? { accept } : {},
      });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      expect(await response.text()).toBe('');
    }
  });
});
