import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
import { QA_TEXTS } from '../../shared/qa-constants.ts';
import { ATTENDEE } from '../auth/callers.ts';
import { HttpError } from './errors.ts';

/**
 * Who is asking, for every rate limit (decision 131): the attendee of a verified attendee token
 * (set by `identifyAttendee` on the routes that read one); else the client id the app sends with
 * its calls (`CLIENT_ID_HEADER`) at this address; else the connection: a page load or a script
 * without either counts alone, never against everyone behind the same address (a venue's NAT is
 * thousands of people).
 */
export function requesterKey(request: FastifyRequest): string {
  const attendee = request.getDecorator<{ id: string } | null>(ATTENDEE);
  if (attendee) return `attendee:${attendee.id}`;
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

/**
 * The limit on asking questions: `max()` a minute per attendee (without a token, per address
 * and asker name), read at every request so the admin's setting applies at once. Answers 429 with the seconds
 * to wait, in `Retry-After` and in words.
 */
export function askRateLimit(app: FastifyInstance, max: () => number): preHandlerAsyncHookHandler {
  const limit: preHandlerAsyncHookHandler = app.rateLimit({
    max: () => max(),
    timeWindow: 60_000,
    // Runs once the body is parsed: without a token, the address and the asker's name
    // (decision 112: a venue's whole Wi-Fi can share one address).
    keyGenerator: (request) => {
      const attendee = request.getDecorator<{ id: string } | null>(ATTENDEE);
      if (attendee) return `ask:${attendee.id}`;
      const body = request.body as { askerUsername?: unknown } | undefined;
      const asker = typeof body?.askerUsername === 'string' ? body.askerUsername : '';
      return `ask:${request.ip}|${asker.toLowerCase().slice(0, 64)}`;
    },
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new HttpError(429, QA_TEXTS.tooManyQuestions(seconds));
    },
  });
  return limit;
}
