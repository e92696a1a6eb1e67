import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
import { HttpError } from './errors.ts';

/**
 * Who is asking, for every rate limit (decision 131): the one place to plug a verified attendee
 * token in. Today that is the client id the app sends with its calls (`CLIENT_ID_HEADER`) at
 * this address, else the connection: a page load or a script without the header counts alone,
 * never against everyone behind the same address (a venue's NAT is thousands of people).
 */
export function requesterKey(request: FastifyRequest): string {
  const claimed = request.headers[CLIENT_ID_HEADER];
  if (typeof claimed === 'string' && claimed !== '') {
    return `${request.ip}|id:${claimed.slice(0, 64)}`;
  }
  const { remoteAddress, remotePort } = request.raw.socket;
  return `${request.ip}|conn:${remoteAddress ?? ''}:${remotePort ?? ''}`;
}

/** The answer to a limited request: 429, saying when to retry (an HTML page for a page load). */
const limited = (_request: FastifyRequest, context: { ttl: number }) => {
  const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
  return new HttpError(
    429,
    `Too many requests; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
    'RATE_LIMITED',
    seconds,
  );
};

export interface WriteLimits {
  /** Writes a minute for one person (their client id, else their connection). */
  perClient: number;
  /** Writes a minute for one address: a backstop far above what a venue's NAT sends. */
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
    app.rateLimit({
      max: limits.perClient,
      timeWindow: 60_000,
      keyGenerator: requesterKey,
      errorResponseBuilder: limited,
    }),
    app.rateLimit({
      max: limits.perAddress,
      timeWindow: 60_000,
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: limited,
    }),
  ] as preHandlerAsyncHookHandler[];
}

/**
 * A pre-handler for page loads and everything unknown (the not-found handler), and for the API's
 * document and reference page: `max` a minute per person or connection (`PAGE_RATE_LIMIT`), so a
 * client flooding unknown paths is slowed down alone. A limited page load is answered with a page
 * saying when to retry.
 */
export const pageRateLimit = (app: FastifyInstance, max: number): preHandlerAsyncHookHandler =>
  app.rateLimit({
    max,
    timeWindow: 60_000,
    keyGenerator: requesterKey,
    errorResponseBuilder: limited,
  });
