import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { CLIENT_ID_HEADER } from '../../shared/constants.ts';

const clientKey = (request: FastifyRequest): string => {
  const claimed = request.headers[CLIENT_ID_HEADER];
  const id = typeof claimed === 'string' ? claimed.slice(0, 64) : '';
  return `${request.ip}|${id}`;
};

export interface WriteLimits {
  /** Writes a minute for one person (address + username): a burst a real attendee never hits. */
  perClient: number;
  /** Writes a minute for one address: a whole conference Wi-Fi can sit behind one NAT. */
  perAddress: number;
}

/**
 * Pre-handlers that rate-limit a write route twice: per person and per address. Answers 429
 * `{ error, code: 'RATE_LIMITED' }` with `Retry-After`.
 */
export function writeRateLimit(
  app: FastifyInstance,
  limits: WriteLimits,
): preHandlerAsyncHookHandler[] {
  return [
    app.rateLimit({ max: limits.perClient, timeWindow: 60_000, keyGenerator: clientKey }),
    app.rateLimit({
      max: limits.perAddress,
      timeWindow: 60_000,
      keyGenerator: (request) => request.ip,
    }),
  ] as preHandlerAsyncHookHandler[];
}

/**
 * A pre-handler for the API's document and reference page, which no screen of the app asks for:
 * 120 requests a minute per address, far above what a person reading them sends.
 */
export const referenceRateLimit = (app: FastifyInstance): preHandlerAsyncHookHandler =>
  app.rateLimit({ max: 120, timeWindow: 60_000 });
