import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_ID_HEADER, CLIENT_PORT_HEADER } from '../../../shared/constants.ts';
import type { Clock } from '../../lib/clock.ts';
import { addressKey } from './address-key.ts';
import { type RateLimited, rateLimited } from '../errors.ts';

/**
 * The request decorator holding the request's caller, once its route's access resolved it
 * (`auth/` sets it): per-person limits key on an attendee's id. Named here, where it is read, so
 * that the transport imports nothing of `auth/`.
 */
export const CALLER = 'caller';

/** The requester an attendee is to every limit, and the client their `Idempotency-Key`s are of. */
export const attendeeRequesterKey = (attendeeId: string): string => `attendee:${attendeeId}`;

/** The id of the attendee calling, when the caller is one. */
function attendeeIdOf(request: FastifyRequest): string | undefined {
  const caller = request.getDecorator<{ kind: string; id?: string } | null>(CALLER);
  return caller?.kind === 'attendee' ? caller.id : undefined;
}

/** A pre-handler that counts a request against a limit and refuses it past the limit. */
export type LimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Every limit counts per minute. */
const WINDOW_MS = 60_000;

/**
 * Counts hits per key in fixed windows of a minute, each key's window starting at its first hit,
 * and answers whether a hit is over `max`. Every limit of the app is one of these, so each limit
 * of a route runs on every request, whatever the others decided (decision 191).
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweepAt = 0;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Counts a hit of `key`: its count in the window, and the milliseconds until the window ends. */
  hit(key: string): { count: number; ttlMs: number } {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, ttlMs: window.resetAt - now };
  }

  /** Keys seen in the current windows (what the counter holds in memory). */
  get size(): number {
    return this.windows.size;
  }

  /** Forgets the windows that ended, at most once a window: memory follows the callers of a minute. */
  private sweep(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + this.windowMs;
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(key);
    }
  }
}

/** One limit: `max` a minute (or a `windowMs`) for each key that `keyOf` gives (no key: the request is not counted). */
interface LimitRule {
  max: number | (() => number);
  /** The window `max` counts over, in milliseconds; a minute unless given. */
  windowMs?: number;
  keyOf: (request: FastifyRequest) => string | undefined;
  /** The message it refuses with: "try again in …" unless it names its own. */
  reason?: RateLimited;
}

export interface RateLimitOptions {
  clock: Clock;
  /**
   * Whether a proxy in front is trusted (`TRUST_PROXY`): its `X-Real-Port` then names the
   * client's connection, as the proxy saw it.
   */
  behindProxy: boolean;
  /**
   * A minute's requests from one address that names no client at all (a proxy in front that
   * forwards no client port): a venue's worth, so a venue is never refused.
   */
  anonymousPerAddress: number;
}

/**
 * The rate limits of one app: every limit is counted here, in memory, per instance. Each
 * route's limits are made once, when the route is declared.
 */
export class RateLimits {
  constructor(private readonly options: RateLimitOptions) {}

  /**
   * Who is asking, for every limit keyed on a person (decision 131, amended by 191): the
   * attendee of a verified attendee token; else the client id the app sends with every call
   * (`CLIENT_ID_HEADER`, a random id of the device) at this address; else the connection,
   * the phone's own to the server, or behind a proxy its own to the proxy (`X-Real-Port`).
   * Behind a proxy that says nothing of the connection, the address: a page load of a venue
   * cannot be told from another, so they share `anonymousPerAddress`, a venue's allowance.
   */
  requesterKey(request: FastifyRequest): string {
    const attendee = attendeeIdOf(request);
    if (attendee !== undefined) return attendeeRequesterKey(attendee);
    const address = addressKey(request.ip);
    const claimed = request.headers[CLIENT_ID_HEADER];
    if (typeof claimed === 'string' && claimed !== '') {
      return `${address}|id:${claimed.slice(0, 64)}`;
    }
    const { remoteAddress, remotePort } = request.raw.socket;
    if (!this.viaProxy(request))
      return `${address}|conn:${remoteAddress ?? ''}:${remotePort ?? ''}`;
    const port = request.headers[CLIENT_PORT_HEADER];
    if (typeof port === 'string' && /^\d{1,5}$/.test(port)) return `${address}|port:${port}`;
    return `${address}|anonymous`;
  }

  /** The address key of a request: an IPv6 address by its /64, as one device gets it. */
  addressOf(request: FastifyRequest): string {
    return addressKey(request.ip);
  }

  /** A request that came through a trusted proxy: its address is the one the proxy forwarded. */
  private viaProxy(request: FastifyRequest): boolean {
    return this.options.behindProxy && request.ip !== request.raw.socket.remoteAddress;
  }

  /**
   * A pre-handler that counts the request against each rule, every rule every time, and
   * answers 429 `{ error, code: 'RATE_LIMITED' }` with `Retry-After` when any is over (an HTML
   * page for a page load). The first rule's figures go out in `X-RateLimit-*` headers.
   */
  limit(rules: LimitRule[]): LimitHook {
    const counters = rules.map((rule) => new FixedWindowCounter(this.options.clock, rule.windowMs));
    return async (request, reply) => {
      let refused: { seconds: number; reason: RateLimited } | undefined;
      rules.forEach((rule, index) => {
        const key = rule.keyOf(request);
        if (key === undefined) return;
        const counter = counters[index];
        if (!counter) return;
        const max = this.maxFor(rule, key);
        const { count, ttlMs } = counter.hit(key);
        const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
        if (index === 0) {
          reply.header('x-ratelimit-limit', String(max));
          reply.header('x-ratelimit-remaining', String(Math.max(0, max - count)));
          reply.header('x-ratelimit-reset', String(seconds));
        }
        if (count > max && !refused) {
          refused = { seconds, reason: rule.reason ?? 'wait' };
        }
      });
      if (refused) {
        throw rateLimited(refused.reason, refused.seconds);
      }
    };
  }

  /** A rule's allowance; a key that names no client behind a proxy gets a venue's. */
  private maxFor(rule: LimitRule, key: string): number {
    if (key.endsWith('|anonymous')) return this.options.anonymousPerAddress;
    return typeof rule.max === 'function' ? rule.max() : rule.max;
  }
}

/** The request decorator under which an app keeps its rate limits. */
const RATE_LIMITS = 'rateLimits';

/** Gives the app its rate limits; the limits of routes declared after this count there. */
export function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): RateLimits {
  const limits = new RateLimits(options);
  app.decorate(RATE_LIMITS, limits);
  return limits;
}

const limitsOf = (app: FastifyInstance): RateLimits => app.getDecorator<RateLimits>(RATE_LIMITS);

/** Who is asking, as the app's limits count them (`RateLimits.requesterKey`). */
export const requesterKeyOf =
  (app: FastifyInstance) =>
  (request: FastifyRequest): string =>
    limitsOf(app).requesterKey(request);

export interface WriteLimits {
  /** Writes a minute for one person (their attendee, else their client id, else their connection). */
  perClient: number;
  /**
   * Writes a minute for one address from callers without an attendee token (a join, a post
   * without one): a backstop far above what a venue's NAT sends. Writes with a token are
   * limited per attendee, and a token costs a proof of work past a free allowance.
   */
  perAddress: number;
}

/**
 * The rate limit of a write route: per person, and per address for callers without an attendee
 * token. Both run on every request. Answers 429 `{ error, code: 'RATE_LIMITED' }` with
 * `Retry-After`.
 */
export function writeRateLimit(app: FastifyInstance, limits: WriteLimits): LimitHook[] {
  const rateLimits = limitsOf(app);
  return [
    rateLimits.limit([
      { max: limits.perClient, keyOf: (request) => rateLimits.requesterKey(request) },
      {
        max: limits.perAddress,
        keyOf: (request) =>
          attendeeIdOf(request) === undefined ? rateLimits.addressOf(request) : undefined,
      },
    ]),
  ];
}

/**
 * A pre-handler for page loads and everything unknown (the not-found handler), and for the API's
 * document and reference page: `max` a minute per person or connection (`PAGE_RATE_LIMIT`), so a
 * client flooding unknown paths is slowed down alone. A limited page load is answered with a page
 * saying when to retry.
 */
export const pageRateLimit = (app: FastifyInstance, max: number): LimitHook => {
  const rateLimits = limitsOf(app);
  return rateLimits.limit([{ max, keyOf: (request) => rateLimits.requesterKey(request) }]);
};

/**
 * The limit on asking questions: `max()` a minute per attendee (without a token, per address
 * and asker name), read at every request so the admin's setting applies at once. Answers 429 with
 * the seconds to wait, in `Retry-After` and in words.
 */
export function askRateLimit(app: FastifyInstance, max: () => number): LimitHook {
  const rateLimits = limitsOf(app);
  return rateLimits.limit([
    {
      max,
      // Runs once the body is parsed: without a token, the address and the asker's name
      // (decision 112: a venue's whole Wi-Fi can share one address).
      keyOf: (request) => {
        const attendee = attendeeIdOf(request);
        if (attendee !== undefined) return `ask:${attendee}`;
        const body = request.body as { askerUsername?: unknown } | undefined;
        const asker = typeof body?.askerUsername === 'string' ? body.askerUsername : '';
        return `ask:${rateLimits.addressOf(request)}|${asker.toLowerCase().slice(0, 64)}`;
      },
      reason: 'tooManyQuestions',
    },
  ]);
}

/** Reports of memories a minute (decision 216): per person, and per address without a token. */
export const REPORT_LIMITS = { perPerson: 5, perAddress: 10 } as const;

/**
 * The limit on reporting memories: `REPORT_LIMITS.perPerson` a minute per person (their
 * attendee, else their client id at their address), and `perAddress` a minute per address for
 * callers without an attendee token (whose reports count per address). Answers 429 with
 * `Retry-After`.
 */
export function reportRateLimit(app: FastifyInstance): LimitHook {
  const rateLimits = limitsOf(app);
  return rateLimits.limit([
    {
      max: REPORT_LIMITS.perPerson,
      keyOf: (request) => `report:${rateLimits.requesterKey(request)}`,
    },
    {
      max: REPORT_LIMITS.perAddress,
      keyOf: (request) =>
        attendeeIdOf(request) === undefined ? `report:${rateLimits.addressOf(request)}` : undefined,
    },
  ]);
}

/**
 * Reactions an attendee may tap (decision 237): about one a second, with a burst of a few taps
 * in a row: `max` per window of `windowMs`.
 */
export const REACTION_LIMIT = { max: 6, windowMs: 5_000 } as const;

/**
 * The limit on reactions: `REACTION_LIMIT` per attendee (the route takes attendees only).
 * Answers 429 with `Retry-After`.
 */
export function reactionRateLimit(app: FastifyInstance): LimitHook {
  const rateLimits = limitsOf(app);
  return rateLimits.limit([
    {
      ...REACTION_LIMIT,
      keyOf: (request) => `react:${rateLimits.requesterKey(request)}`,
    },
  ]);
}
