import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';

/** How often the event-loop lag is measured. */
const SAMPLE_INTERVAL_MS = 250;

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

/** Seconds to wait before retrying: the lag seen, rounded up, between 1 and 30. */
export const retryAfterSeconds = (lagMs: number | undefined): number =>
  Math.min(30, Math.max(1, Math.ceil((lagMs ?? 0) / 1000)));

/**
 * Sheds load instead of letting every request time out: while the event loop lags more than
 * `maxEventLoopDelayMs`, new requests get `503 { error, code: 'SERVICE_UNAVAILABLE' }` with a
 * `Retry-After` from the lag, before any work is done for them. Requests already admitted finish.
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  maxEventLoopDelayMs: number,
): Promise<void> {
  if (maxEventLoopDelayMs <= 0) return;
  // under-pressure measures the lag; the check is a callback hook of ours, because the plugin's
  // own hook reads `request.routeOptions`, an object Fastify builds anew on every read, and this
  // hook runs on every request, the 304 poll included (decision 184).
  await app.register(underPressure, { sampleInterval: SAMPLE_INTERVAL_MS });
  app.addHook('onRequest', (request, reply, done) => {
    const lag = app.memoryUsage().eventLoopDelay;
    // The app shell (pages, hashed assets) is static and cheap: it still loads, so people see
    // the app and its messages when their calls are shed, not a blank page.
    if (lag <= maxEventLoopDelayMs || isAppShell(request)) {
      done();
      return;
    }
    reply.header('retry-after', String(retryAfterSeconds(lag)));
    void sendError(reply, 503, {
      error: 'The server is too busy right now; try again in a few seconds',
      code: 'SERVICE_UNAVAILABLE',
    });
  });
}
