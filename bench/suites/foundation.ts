import { runLoad } from '../lib/load.ts';
import { startAppServer, startReferenceServer } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';

/** GET /api/config (a fixed JSON answer through the whole app) against bare node:http. */
export async function configThroughput(): Promise<Row[]> {
  const app = await startAppServer();
  try {
    const body = await (await fetch(`${app.url}/api/config`)).text();
    const reference = await startReferenceServer({
      '/api/config': { status: 200, headers: { 'content-type': 'application/json' }, body },
    });
    try {
      const ref = await runLoad({ url: `${reference.url}/api/config` });
      const measured = await runLoad({ url: `${app.url}/api/config` });
      const ratio = measured.requestsPerSecond / ref.requestsPerSecond;
      return [
        {
          name: 'GET /api/config req/s (p99 ms)',
          value: `${fmt(measured.requestsPerSecond)} (${measured.p99})`,
          reference: `${fmt(ref.requestsPerSecond)} (${ref.p99}) bare node:http`,
          ratio: fmt(ratio, 2),
          target: 'informational',
          met: null,
        },
      ];
    } finally {
      await reference.stop();
    }
  } finally {
    await app.stop();
  }
}
