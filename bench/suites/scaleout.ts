import sharp from 'sharp';
import { type LoadResult, runLoad } from '../lib/load.ts';
import { postMultipart } from '../lib/multipart.ts';
import { BENCH_DATABASE_URL as DATABASE_URL, benchSchema } from '../lib/postgres.ts';
import { type BenchServer, startAppServer } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';

/** Runs the same load on every server at once (connections split evenly); sums the results. */
async function loadAll(
  servers: BenchServer[],
  path: string,
  options: {
    connections: number;
    method?: 'GET' | 'POST';
    body?: string;
    /** A body of its own for each request. */
    bodyOf?: () => string;
    headers?: Record<string, string>;
  },
): Promise<{ requestsPerSecond: number; p99: number; errors: number }> {
  const results: LoadResult[] = await Promise.all(
    servers.map((server) =>
      runLoad({
        url: `${server.url}${path}`,
        connections: Math.max(1, Math.round(options.connections / servers.length)),
        durationSeconds: 5,
        ...(options.method ? { method: options.method } : {}),
        ...(options.body ? { body: options.body } : {}),
        ...(options.bodyOf ? { bodyOf: options.bodyOf } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
      }),
    ),
  );
  return {
    requestsPerSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    p99: Math.max(...results.map((r) => r.p99)),
    errors: results.reduce((sum, r) => sum + r.failures, 0),
  };
}

/** Two instances on one PostgreSQL database against one: 304 gallery polls and question posts. */
export async function scaleOut(): Promise<Row[]> {
  if (!DATABASE_URL) {
    return [
      {
        name: 'two instances vs one (PostgreSQL)',
        value: 'skipped: set TEST_DATABASE_URL',
        reference: '',
        ratio: '',
        target: 'informational',
        met: null,
      },
    ];
  }
  const database = await benchSchema(DATABASE_URL, 'scaleout');
  const env = database.env;
  const servers: BenchServer[] = [];
  try {
    servers.push(await startAppServer(env));
    servers.push(await startAppServer(env));
    const [a] = servers;
    if (!a) throw new Error('no server');

    const picture = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#4c6ef5' },
    })
      .png()
      .toBuffer();
    const signup = await postMultipart(
      `${a.url}/api/speakersadd`,
      { name: 'Bench Speaker', stack: 'Node.js', bio: 'Measures things.' },
      [
        {
          field: 'picture',
          filename: 'p.png',
          contentType: 'image/png',
          chunks: async function* () {
            yield picture;
          },
        },
      ],
    );
    const speaker = (JSON.parse(signup.body) as { speaker: { _id: string; name: string } }).speaker;
    const etag = (await fetch(`${a.url}/api/memory`)).headers.get('etag') ?? '';
    // Each post by an asker of its own with a text of its own: the asking limit counts per
    // asker, and a repeat of the same text is refused (409).
    let asked = 0;
    const question = () => {
      asked += 1;
      return JSON.stringify({
        speakerId: speaker._id,
        speakerName: speaker.name,
        question: `How does this scale? (${asked})`,
        askerUsername: `bench-${asked}`,
      });
    };
    const poll = { connections: 50, headers: { 'if-none-match': etag } };
    const post = {
      connections: 20,
      method: 'POST' as const,
      bodyOf: question,
      headers: { 'content-type': 'application/json' },
    };

    const pollOne = await loadAll([a], '/api/memory', poll);
    const pollTwo = await loadAll(servers, '/api/memory', poll);
    const postOne = await loadAll([a], '/questions', post);
    const postTwo = await loadAll(servers, '/questions', post);
    const row = (name: string, one: typeof pollOne, two: typeof pollOne): Row => ({
      name,
      value: `${fmt(two.requestsPerSecond)} req/s, p99 ${two.p99} ms, errors ${two.errors}`,
      reference: `${fmt(one.requestsPerSecond)} req/s, p99 ${one.p99} ms (one instance)`,
      ratio: fmt(two.requestsPerSecond / one.requestsPerSecond, 2),
      target: 'informational (2 cores shared with the load generator)',
      met: null,
    });
    return [
      row('two instances: 304 gallery polls', pollOne, pollTwo),
      row('two instances: POST /questions', postOne, postTwo),
    ];
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
  }
}
