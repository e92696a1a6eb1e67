import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
import { QA_TEXTS } from '../../shared/qa-constants.ts';
import { ATTENDEE } from '../auth/callers.ts';
import { HttpError } from './errors.ts';

/**
 * The one key of per-person limits: the attendee of a verified attendee token (set by
 * `identifyAttendee` on the routes that read one), else the address and the username header.
 */
export const clientKey = (request: FastifyRequest): string => {
  const attendee = request.getDecorator<{ id: string } | null>(ATTENDEE);
  if (attendee) return `attendee:${attendee.id}`;
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
