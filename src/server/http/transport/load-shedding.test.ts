import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../tests/support/test-app.ts';
import { OverloadDetector, retryAfterSeconds } from './load-shedding.ts';

/** Keeps the CPU busy, as a burst of work beyond capacity does to the event loop. */
function block(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy
  }
}

describe('retryAfterSeconds', () => {
  it('follows the lag, between 1 and 5 seconds', () => {
    expect(retryAfterSeconds(undefined)).toBe(1);
    expect(retryAfterSeconds(40)).toBe(1);
    expect(retryAfterSeconds(2_500)).toBe(3);
    expect(retryAfterSeconds(120_000)).toBe(5);
  });
});

describe('OverloadDetector', () => {
  /** Feeds windows of 250 ms, the first ending at `from`; answers whether it sheds after each. */
  const feed = (detector: OverloadDetector, lags: (number | undefined)[], from = 250) =>
    lags.map((lag, index) => {
      detector.observe(from + index * 250, lag);
      return detector.shedding;
    });

  it('sheds only once the lag has stayed over the limit for a second', () => {
    const detector = new OverloadDetector(100);
    expect(feed(detector, [20, 150, 150, 150, 150, 150, 150])).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
    expect(detector.lagMs).toBe(150);
    // The first window back under the limit ends it.
    expect(feed(detector, [30, 150], 2_000)).toEqual([false, false]);
  });

  it('does not shed for a single stall, however long', () => {
    const detector = new OverloadDetector(100);
    expect(feed(detector, [5, 300, 5, 5, 30_000, 5, 5])).toEqual(Array(7).fill(false));
  });

  it('reads a window without samples as no reading, not as an infinite lag', () => {
    const detector = new OverloadDetector(1000);
    expect(feed(detector, [5, undefined, undefined, undefined, undefined, undefined, NaN])).toEqual(
      Array(7).fill(false),
    );
    expect(detector.lagMs).toBe(5);
    // Nor does it end an overload that is going on.
    const busy = new OverloadDetector(100);
    expect(feed(busy, [200, 200, 200, 200, 200, undefined, 200])).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});

/** Sends `url` one request after the other until `running` is over; answers their statuses. */
async function requestWhile(url: string, running: { running: boolean }): Promise<number[]> {
  const statuses: number[] = [];
  while (running.running) {
    const response = await fetch(url);
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a stall that is not an overload', () => {
  const t = useTestApp({ env: { MAX_EVENT_LOOP_DELAY_MS: '100' } });

  it('does not shed the requests that arrive right after a single stall', async () => {
    const work = `${t.url}/api/memory?limit=5`;
    const statuses: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      await pause(600);
      // One stall of 300 ms, three times the limit, then quiet: requests sent at once after it.
      block(300);
      const sending = { running: true };
      const answered = requestWhile(work, sending);
      await pause(500);
      sending.running = false;
      statuses.push(...(await answered));
    }
    expect(statuses.length).toBeGreaterThan(4);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});

describe('a lag below the limit', () => {
  const t = useTestApp({ env: { MAX_EVENT_LOOP_DELAY_MS: '1000' } });

  it('is not shed, even when the loop is too busy to sample its own delay', async () => {
    // Stalls of 300 ms back to back leave some sampling windows without a single sample; a
    // window without samples is no reading, not an infinite lag.
    const work = `${t.url}/api/memory?limit=5`;
    const load = { running: true };
    const loading = (async () => {
      const end = Date.now() + 2_500;
      while (Date.now() < end) {
        block(300);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      load.running = false;
    })();
    const statuses = await requestWhile(work, load);
    await loading;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
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
    const started = performance.now();
    const loading = (async () => {
      while (load.running) {
        block(100);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    let shed: Response | undefined;
    let shedAfter = 0;
    let pageWhileShedding: number | undefined;
    let scriptWhileShedding: number | undefined;
    try {
      for (let attempt = 0; attempt < 200 && !shed; attempt += 1) {
        const response = await fetch(work);
        if (response.status === 503) {
          shed = response;
          shedAfter = performance.now() - started;
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
    // Only a sustained overload is shed: the lag over the limit for a second, at least.
    expect(shedAfter).toBeGreaterThanOrEqual(1_000);
    expect(Number(shed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(shed.headers.get('retry-after'))).toBeLessThanOrEqual(5);
    expect(shed.headers.get('content-type')).toMatch(/application\/json/);
    expect(shed.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(await shed.json()).toMatchObject({
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
