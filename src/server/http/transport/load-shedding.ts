import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError, unavailable } from '../errors.ts';

/** How often the event-loop lag is read: the length of one window. */
const SAMPLE_INTERVAL_MS = 250;
/** How often the loop's delay is sampled within a window. */
const RESOLUTION_MS = 10;
/** How long the lag must stay above the limit, window after window, before requests are shed. */
const SUSTAINED_OVERLOAD_MS = 1_000;

const SHED_PREFIXES = ['/api', '/media/', '/socket.io/'];

/**
 * A page or a file of the client (a hashed asset, or one of `public/` such as the logo and the
 * colour-scheme script the page loads first): GET/HEAD outside the API, media and socket paths.
 */
const isAppShell = (request: FastifyRequest): boolean => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?', 1)[0] ?? '';
  if (pathname.startsWith('/assets/')) return true;
  if (SHED_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return false;
  const isPage = (request.headers.accept ?? '').includes('text/html');
  return isPage || /^\/[\w.-]+\.[a-z0-9]+$/i.test(pathname);
};

/** Seconds to wait before retrying: the lag seen, rounded up, between 1 and 5. */
export const retryAfterSeconds = (lagMs: number | undefined): number =>
  Math.min(5, Math.max(1, Math.ceil((lagMs ?? 0) / 1000)));

/**
 * Tells a sustained overload from a stall, window by window. A window whose mean lag is above
 * the limit starts (or continues) an overload; shedding begins once windows have been over it
 * for `sustainedMs`, and ends with the first window under it. A window with no sample (the
 * loop's own timer did not run in it, as after a stall that began just after the last reading)
 * is no reading: it changes nothing.
 */
export class OverloadDetector {
  #overSince: number | undefined;
  #lagMs = 0;
  #shedding = false;

  constructor(
    private readonly maxLagMs: number,
    private readonly sustainedMs = SUSTAINED_OVERLOAD_MS,
  ) {}

  /** The mean lag of the window that ended at `atMs` (a monotonic time), if it had samples. */
  observe(atMs: number, lagMs: number | undefined): void {
    if (lagMs === undefined || !Number.isFinite(lagMs)) return;
    this.#lagMs = lagMs;
    if (lagMs <= this.maxLagMs) {
      this.#overSince = undefined;
      this.#shedding = false;
      return;
    }
    this.#overSince ??= atMs;
    this.#shedding = atMs - this.#overSince >= this.sustainedMs;
  }

  /** Whether new requests are shed now. */
  get shedding(): boolean {
    return this.#shedding;
  }

  /** The lag of the last window that had samples, in ms. */
  get lagMs(): number {
    return this.#lagMs;
  }
}

/**
 * Sheds load instead of letting every request time out: once the event loop's lag has stayed
 * above `maxEventLoopDelayMs` for a second, new requests get `503 { error, code:
 * 'SERVICE_UNAVAILABLE' }` with a `Retry-After` from the lag, before any work is done for them.
 * Requests already admitted finish; a single stall, however long, sheds nothing.
 */
export function registerLoadShedding(app: FastifyInstance, maxEventLoopDelayMs: number): void {
  if (maxEventLoopDelayMs <= 0) return;
  const detector = new OverloadDetector(maxEventLoopDelayMs);
  // Node's own sampler: a timer every RESOLUTION_MS that records how late it ran.
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const reading = setInterval(() => {
    // Each sample is the time between two runs of the sampler's timer: the lag is the excess.
    const lag = histogram.count > 0 ? Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS) : undefined;
    histogram.reset();
    detector.observe(performance.now(), lag);
  }, SAMPLE_INTERVAL_MS);
  reading.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(reading);
    histogram.disable();
    done();
  });
  // A callback hook reading one field: it runs on every request, the 304 poll included
  // (decision 184).
  app.addHook('onRequest', (request, reply, done) => {
    // The app shell (pages, hashed assets) is static and cheap: it still loads, so people see
    // the app and its messages when their calls are shed, not a blank page.
    if (!detector.shedding || isAppShell(request)) {
      done();
      return;
    }
    void sendError(reply, unavailable('busy').retryAfter(retryAfterSeconds(detector.lagMs)));
  });
}
