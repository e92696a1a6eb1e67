import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../tests/support/test-app.ts';
import { retryAfterSeconds } from './load-shedding.ts';

/** Keeps the CPU busy, as a burst of work beyond capacity does to the event loop. */
function block(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy
  }
}

describe('retryAfterSeconds', () => {
  it('follows the lag, between 1 and 30 seconds', () => {
    expect(retryAfterSeconds(undefined)).toBe(1);
    expect(retryAfterSeconds(40)).toBe(1);
    expect(retryAfterSeconds(2_500)).toBe(3);
    expect(retryAfterSeconds(120_000)).toBe(30);
  });
});

describe('overload', () => {
  const t = useTestApp({ env: { MAX_EVENT_LOOP_DELAY_MS: '30' } });

  it('sheds with 503 and Retry-After while the event loop lags, and recovers after', async () => {
    // A request that does work (the polled lists are answered from memory, never shed).
    const work = `${t.url}/api/memory?limit=5`;
    expect((await fetch(work)).status).toBe(200);

    // The app runs in this process: keeping its event loop busy overloads it.
    const load = { running: true };
    const loading = (async () => {
      while (load.running) {
        block(100);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    let shed: Response | undefined;
    let pageWhileShedding: number | undefined;
    let scriptWhileShedding: number | undefined;
    try {
      for (let attempt = 0; attempt < 200 && !shed; attempt += 1) {
        const response = await fetch(work);
        if (response.status === 503) {
          shed = response;
          // Pages and assets still load while API calls are shed.
          const page = await fetch(`${t.url}/home`, { headers: { accept: 'text/html' } });
          await page.arrayBuffer();
          pageWhileShedding = page.status;
          // So do the files of public/ the page loads first (the colour-scheme script).
          const script = await fetch(`${t.url}/color-scheme.js`);
          await script.arrayBuffer();
          scriptWhileShedding = script.status;
        } else {
          expect(response.status).toBe(200);
          await response.arrayBuffer();
        }
      }
    } finally {
      load.running = false;
      await loading;
    }
    if (!shed) throw new Error('The server never shed load');
    expect(pageWhileShedding).toBe(404); // no client built in this test: not a 503
    expect(scriptWhileShedding).toBe(404);
    expect(Number(shed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(shed.headers.get('content-type')).toMatch(/application\/json/);
    expect(shed.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(await shed.json()).toEqual({
      error: 'The server is too busy right now; try again in a few seconds',
      code: 'SERVICE_UNAVAILABLE',
    });

    // Once the load stops, it answers again, without a restart.
    let recovered = false;
    for (let attempt = 0; attempt < 100 && !recovered; attempt += 1) {
      const response = await fetch(work);
      await response.arrayBuffer();
      recovered = response.status === 200;
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).toBe(true);
  });
});
