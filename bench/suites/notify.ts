import pg from 'pg';
import { BENCH_DATABASE_URL } from '../lib/postgres.ts';
import { type Row, fmt } from '../lib/report.ts';
import { percentile } from './polls.ts';

/** Notifications per measurement, and the senders sending them at once (the instances' pools). */
const COUNT = Number(process.env.BENCH_NOTIFY_COUNT ?? 20_000);
const SENDERS = 8;
/** An event of the app as it crosses (a new question, a poll's vote with its header): 300 bytes. */
const TYPICAL_BYTES = 300;
/** The largest part the app sends (postgres-bus.ts: a payload under 8,000 bytes). */
const LARGEST_BYTES = 7_999;

/** A payload of `bytes` bytes that starts with its send time, as the app's starts with its sender. */
const payloadOf = (bytes: number) => {
  const stamp = (performance.timeOrigin + performance.now()).toFixed(3);
  return `${stamp} ${'x'.repeat(Math.max(0, bytes - stamp.length - 1))}`;
};

/**
 * `COUNT` notifications of `bytes` from `SENDERS` connections, one statement each as the app
 * sends its events, heard by `listeners` connections (one per instance): per second until the
 * last listener heard the last, and each notification's time from sent to heard. With `notify`
 * false, the same statements without a notification (`select $2::text`): the round trip alone.
 */
async function measure(
  url: string,
  bytes: number,
  listeners: number,
  how: 'statements' | 'bare' | 'one transaction' = 'statements',
) {
  const notify = how !== 'bare';
  const channel = `bench_notify_${process.pid}_${Date.now()}`;
  const ears = await Promise.all(
    Array.from({ length: listeners }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`listen "${channel}"`);
      return client;
    }),
  );
  const senders = new pg.Pool({ connectionString: url, max: SENDERS });
  const lags: number[] = [];
  let heard = 0;
  const all = notify ? COUNT * listeners : 0;
  const done = new Promise<void>((resolve) => {
    if (all === 0) resolve();
    for (const ear of ears) {
      ear.on('notification', (message) => {
        const sent = Number(message.payload?.slice(0, message.payload.indexOf(' ')));
        lags.push(performance.timeOrigin + performance.now() - sent);
        heard++;
        if (heard === all) resolve();
      });
    }
  });
  // The senders' connections open before the clock starts.
  await Promise.all(Array.from({ length: SENDERS }, () => senders.query('select 1')));
  const start = performance.now();
  let next = 0;
  if (how === 'one transaction') {
    // PostgreSQL's own pace, without a round trip each: every notification in one statement
    // (each payload its own: identical ones in one transaction are sent once).
    await senders.query(
      `select pg_notify($1, $2 || ' ' || i) from generate_series(1, ${COUNT}) as i`,
      [channel, payloadOf(bytes - 6)],
    );
  }
  await Promise.all(
    Array.from({ length: how === 'one transaction' ? 0 : SENDERS }, async () => {
      while (next < COUNT) {
        next++;
        const statement = notify ? 'select pg_notify($1, $2)' : 'select $1::text, $2::text';
        await senders.query(statement, [channel, payloadOf(bytes)]);
      }
    }),
  );
  const sent = performance.now();
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 60_000))]);
  const seconds = (performance.now() - start) / 1000;
  await senders.end();
  for (const ear of ears) await ear.end();
  lags.sort((a, b) => a - b);
  return {
    perSecond: COUNT / seconds,
    sendPerSecond: COUNT / ((sent - start) / 1000),
    lagP50: percentile(lags, 50),
    lagP99: percentile(lags, 99),
    missed: all - heard,
  };
}

/**
 * The events between instances ride PostgreSQL's LISTEN/NOTIFY on one channel (postgres-bus.ts):
 * how many a second this machine's PostgreSQL carries, at the app's typical and largest payloads,
 * to 2 and to 10 listening instances, beside the same statements without the notification.
 */
export async function notifyThroughput(): Promise<Row[]> {
  if (!BENCH_DATABASE_URL) {
    return [
      {
        name: 'NOTIFY throughput',
        value: 'skipped: set TEST_DATABASE_URL (or BENCH_DATABASE_URL)',
        reference: '',
        ratio: '',
        target: '',
        met: null,
      },
    ];
  }
  const url = BENCH_DATABASE_URL;
  const bare = await measure(url, TYPICAL_BYTES, 0, 'bare');
  const rows: Row[] = [];
  for (const [bytes, listeners, kind] of [
    [TYPICAL_BYTES, 2, undefined],
    [TYPICAL_BYTES, 10, undefined],
    [LARGEST_BYTES, 2, undefined],
    [LARGEST_BYTES, 10, undefined],
    [TYPICAL_BYTES, 2, 'one transaction'],
  ] as const) {
    const how = kind ?? 'statements';
    const r = await measure(url, bytes, listeners, how);
    rows.push({
      name: `${fmt(COUNT)} NOTIFY of ${fmt(bytes)} bytes ${how === 'statements' ? `from ${SENDERS} connections, one statement each` : 'in one transaction'}, ${listeners} listeners`,
      value: `${fmt(r.perSecond)}/s heard by all (sent ${fmt(r.sendPerSecond)}/s), sent → heard p50/p99 ${fmt(r.lagP50, 1)}/${fmt(r.lagP99, 1)} ms, missed ${r.missed}`,
      reference: `${fmt(bare.perSecond)}/s the same statements without NOTIFY`,
      ratio: fmt(r.perSecond / bare.perSecond, 2),
      target: 'informational',
      met: null,
    });
    console.log(`[notify] ${rows.at(-1)?.name}: ${rows.at(-1)?.value}`);
  }
  return rows;
}
