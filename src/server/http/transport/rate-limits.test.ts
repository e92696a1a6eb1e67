import { Client } from 'undici';
import { describe, expect, it } from 'vitest';
import { CLIENT_ID_HEADER, CLIENT_PORT_HEADER } from '../../../shared/constants.ts';
import { PLAIN_PAGE, useTestApp } from '../../../../tests/support/test-app.ts';
import { addSpeaker } from '../../../../tests/support/speakers.ts';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** Asks `speaker` question number `index` as `askerUsername`, with the client id `client`. */
const ask = (
  baseUrl: string,
  speaker: { _id: string; name: string },
  index: number,
  client: string,
) =>
  fetch(
    `${baseUrl}/questions`,
    json(
      {
        speakerId: speaker._id,
        speakerName: speaker.name,
        question: `Question number ${index}?`,
        askerUsername: `asker-${index}`,
      },
      { [CLIENT_ID_HEADER]: client },
    ),
  );

/** Statuses of `count` calls made one after another, each from a new client id. */
async function rotating(count: number, call: (index: number) => Promise<Response>) {
  const statuses: Record<number, number> = {};
  for (let index = 0; index < count; index += 1) {
    const response = await call(index);
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  return statuses;
}

describe('the per-address write limit', () => {
  const t = useTestApp({
    env: {
      WRITE_RATE_LIMIT_PER_ADDRESS: '50',
      JOIN_PROOF_FREE_PER_MINUTE: '1000',
      QUESTIONS_PER_MINUTE: '600',
    },
  });

  it('runs beside the per-person limit: 200 joins from one address with rotating client ids get 50', async () => {
    const statuses = await rotating(200, (index) =>
      fetch(
        `${t.url}/api/attendees`,
        json({ username: `bot-${index}` }, { [CLIENT_ID_HEADER]: `bot-${index}` }),
      ),
    );
    expect(statuses).toEqual({ 201: 50, 429: 150 });
  });

  it('runs on asking too, after the asking limit: 120 questions without a token get 50', async () => {
    const speaker = await addSpeaker(t.url, 'Grace Hopper');
    // Each route counts its own writes: the joins above do not count here.
    const statuses = await rotating(120, (index) => ask(t.url, speaker, index, `asker-${index}`));
    expect(statuses).toEqual({ 201: 50, 429: 70 });
  });
});

describe('the per-person write limit on asking', () => {
  const t = useTestApp({ env: { WRITE_RATE_LIMIT: '5', QUESTIONS_PER_MINUTE: '600' } });

  it('runs after the asking limit: one client asking as many names gets 5 a minute', async () => {
    const speaker = await addSpeaker(t.url, 'Grace Hopper');
    const statuses = await rotating(8, (index) => ask(t.url, speaker, index, 'one-client'));
    expect(statuses).toEqual({ 201: 5, 429: 3 });
  });
});

const PAGE = { accept: 'text/html,application/xhtml+xml' };

/**
 * A venue behind the documented proxy: every phone's requests arrive on a few keep-alive
 * connections of the proxy, all with the venue's one address in `X-Forwarded-For`, and the
 * phone's own port in `X-Real-Port`.
 */
describe('a venue behind a proxy', () => {
  const t = useTestApp({
    env: { TRUST_PROXY: 'true', PAGE_RATE_LIMIT: '20' },
    client: { 'index.html': PLAIN_PAGE },
  });

  it('loads 2,000 phones x 3 pages through 16 proxy connections with no 429, while a flooding phone is limited alone', async () => {
    const upstream = Array.from({ length: 16 }, () => new Client(t.url, { pipelining: 1 }));
    const statuses: Record<number, number> = {};
    try {
      let next = 0;
      await Promise.all(
        upstream.map(async (connection) => {
          while (next < 2_000) {
            const phone = next++;
            for (const path of ['/', '/home', '/questions']) {
              const answer = await connection.request({
                path,
                method: 'GET',
                headers: {
                  ...PAGE,
                  'x-forwarded-for': '198.51.100.10',
                  [CLIENT_PORT_HEADER]: String(20_000 + phone),
                },
              });
              await answer.body.arrayBuffer();
              statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
            }
          }
        }),
      );
      expect(statuses).toEqual({ 200: 6_000 });
      // One phone flooding is limited by its own connection, as without a proxy.
      const flood: number[] = [];
      const [first] = upstream;
      for (let i = 0; first && i < 25; i += 1) {
        const answer = await first.request({
          path: `/wp-admin/${i}.php`,
          method: 'GET',
          headers: { ...PAGE, 'x-forwarded-for': '198.51.100.10', [CLIENT_PORT_HEADER]: '9999' },
        });
        await answer.body.arrayBuffer();
        flood.push(answer.statusCode);
      }
      expect(flood.filter((status) => status === 429)).toHaveLength(5);
    } finally {
      await Promise.all(upstream.map((connection) => connection.close()));
    }
  }, 120_000);

  it('without the port, page loads of an address share a venue-sized allowance, not a connection', async () => {
    const upstream = new Client(t.url, { pipelining: 1 });
    try {
      const statuses: Record<number, number> = {};
      for (let i = 0; i < 200; i += 1) {
        const answer = await upstream.request({
          path: '/',
          method: 'GET',
          headers: { ...PAGE, 'x-forwarded-for': '198.51.100.20' },
        });
        await answer.body.arrayBuffer();
        statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
      }
      expect(statuses).toEqual({ 200: 200 });
    } finally {
      await upstream.close();
    }
  });

  it('trusts no port from a client that is not behind the proxy', async () => {
    // Straight to the app (no X-Forwarded-For): the connection counts, whatever port it claims.
    const client = new Client(t.url, { pipelining: 1 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 22; i += 1) {
        const answer = await client.request({
          path: `/nope-${i}`,
          method: 'GET',
          headers: { ...PAGE, [CLIENT_PORT_HEADER]: String(30_000 + i) },
        });
        await answer.body.arrayBuffer();
        statuses.push(answer.statusCode);
      }
      expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});

describe('guessing a speaker secret', () => {
  const t = useTestApp({ env: { WRITE_RATE_LIMIT_PER_ADDRESS: '20' } });

  it('is bounded by the per-address limit, whatever client id each guess claims', async () => {
    const speaker = await addSpeaker(t.url, 'Grace Hopper');
    const statuses = await rotating(30, (index) =>
      fetch(
        `${t.url}/api/speakers/login`,
        json(
          { username: speaker.username, secret: `guess-${index}-${'x'.repeat(40)}` },
          { [CLIENT_ID_HEADER]: `guesser-${index}` },
        ),
      ),
    );
    // The sign-up was the first of the address's 20 writes to the speakers' routes.
    expect(statuses[429]).toBe(11);
    expect(Object.keys(statuses).filter((status) => status !== '429')).toHaveLength(1);
  });
});
