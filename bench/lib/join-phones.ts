// A process of its own playing phones that join at the keynote's rush (`bench/suites/storm.ts`):
// each phone, at its moment, from its own loopback address (127.0.0.2 and up, so that each
// address stays within the free joins a minute), loads the join page, asks for a challenge, joins,
// loads /home and the gallery's first page, and opens its socket; the join's time is from the
// first byte asked to the socket connected. The sockets stay open until the parent says `close`;
// then it reports the times, the statuses, the tokens and its own event-loop lag.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { Client } from 'undici';
import { joinChallengeResponseSchema } from '../../src/shared/schemas/attendee.ts';

export interface JoinPhonesJob {
  url: string;
  /**
   * Each phone: its number (its name), the local address it connects from, and when it starts
   * (milliseconds since the epoch).
   */
  phones: { index: number; address: string; at: number }[];
}

export interface JoinPhonesReport {
  /** Each joined phone's whole join, in ms; a phone that failed has none. */
  joins: number[];
  /** `<method> <path> <status>` → count, every request made. */
  statuses: Record<string, number>;
  errors: number;
  /** Each phone's attendee token, by its place in the job ('' when it did not join). */
  tokens: string[];
  /** When the last phone's socket connected (milliseconds since the epoch). */
  lastJoinedAt: number;
  /** This process's own event-loop delay p99 and max (ms) while the phones joined. */
  lagP99: number;
  lagMax: number;
}

const now = () => performance.timeOrigin + performance.now();

function run(job: JoinPhonesJob): void {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const report: JoinPhonesReport = {
    joins: [],
    statuses: {},
    errors: 0,
    tokens: job.phones.map(() => ''),
    lastJoinedAt: 0,
    lagP99: 0,
    lagMax: 0,
  };
  const sockets: Socket[] = [];
  const count = (key: string) => {
    report.statuses[key] = (report.statuses[key] ?? 0) + 1;
  };

  async function phone(place: number, index: number, address: string): Promise<void> {
    const start = performance.now();
    const client = new Client(job.url, { localAddress: address });
    const device = { 'x-confab-user': `rush-phone-${index}` };
    const call = async (
      method: 'GET' | 'POST',
      path: string,
      headers: Record<string, string>,
      body?: unknown,
    ) => {
      const answer = await client.request({
        method,
        path,
        headers: {
          'accept-encoding': 'gzip, deflate, br',
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.body.text();
      count(`${method} ${path.split('?')[0] ?? ''} ${answer.statusCode}`);
      if (answer.statusCode >= 400) throw new Error(`${method} ${path}: ${answer.statusCode}`);
      return text;
    };
    try {
      const page = { accept: 'text/html' };
      await call('GET', '/', page);
      const { challenge } = joinChallengeResponseSchema.parse(
        JSON.parse(await call('POST', '/api/attendees/challenge', device, {})),
      );
      // Every address stays within its free joins: a challenge here is a failed spread.
      if (challenge) {
        count('challenge offered');
        throw new Error('a proof of work was asked for');
      }
      const joined = JSON.parse(
        await call('POST', '/api/attendees', device, { username: `rush-${index}` }),
      ) as { token: string };
      await call('GET', '/home', page);
      await call('GET', '/api/memory?limit=60', device);
      await new Promise<void>((resolve, reject) => {
        const socket = io(job.url, {
          transports: ['websocket'],
          forceNew: true,
          reconnection: false,
          timeout: 20_000,
          localAddress: address,
        } as Parameters<typeof io>[1]);
        sockets.push(socket);
        socket.once('connect', () => resolve());
        socket.once('connect_error', (error) => {
          count(`socket connect_error ${error.message}`);
          reject(error);
        });
      });
      report.joins.push(performance.now() - start);
      report.tokens[place] = joined.token;
      report.lastJoinedAt = Math.max(report.lastJoinedAt, now());
    } catch {
      report.errors++;
    } finally {
      await client.close();
    }
  }

  const started = Promise.all(
    job.phones.map(async ({ index, address, at }, place) => {
      const wait = at - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await phone(place, index, address);
    }),
  );
  void started.then(() => {
    report.lagP99 = lag.percentile(99) / 1e6;
    report.lagMax = lag.max / 1e6;
    process.send?.({ joined: true });
  });
  process.once('message', () => {
    void started.then(() => {
      for (const socket of sockets) socket.close();
      process.send?.(report, () => process.disconnect());
    });
  });
}

process.once('message', run);
