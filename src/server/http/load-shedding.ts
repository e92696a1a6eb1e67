import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';

/** How often the event-loop lag is measured. */
const SAMPLE_INTERVAL_MS = 250;

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
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    sampleInterval: SAMPLE_INTERVAL_MS,
    pressureHandler: (_request, reply, _type, value) => {
      void reply
        .code(503)
        .header('retry-after', String(retryAfterSeconds(value)))
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send({
          error: 'The server is too busy right now; try again in a few seconds',
          code: 'SERVICE_UNAVAILABLE',
        });
    },
  });
}
