import type { Clock } from '../lib/clock.ts';

export interface LoginLimiterOptions {
  /** Failed attempts a client may make within one window. */
  maxFailures: number;
  windowMs: number;
  clock: Clock;
  /** Clients remembered at most; the oldest are forgotten first. */
  maxClients?: number;
}

/** One key's failed logins: how many, and when the first and the last were. */
interface Failures {
  count: number;
  first: number;
  last: number;
}

/** When a key's failures are forgotten, and from when it may be tried again. */
interface FailureRules {
  forgetAt(failures: Failures): number;
  retryAt(failures: Failures): number;
}

/**
 * Failed logins per key (an address, an account), kept in memory: each app instance counts on
 * its own. Beyond `maxKeys` keys, the one whose last failure is oldest is forgotten first.
 */
class FailedLogins {
  readonly #entries = new Map<string, Failures>();
  readonly #clock: Clock;
  readonly #maxKeys: number;
  readonly #rules: FailureRules;

  constructor(clock: Clock, maxKeys: number, rules: FailureRules) {
    this.#clock = clock;
    this.#maxKeys = maxKeys;
    this.#rules = rules;
  }

  #current(key: string, now: number): Failures | undefined {
    const entry = this.#entries.get(key);
    if (entry && now >= this.#rules.forgetAt(entry)) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Milliseconds until the key may be tried again; 0 when it may be now. */
  retryAfterMs(key: string): number {
    const now = this.#clock.now().getTime();
    const entry = this.#current(key, now);
    return entry ? Math.max(0, this.#rules.retryAt(entry) - now) : 0;
  }

  /** Records a failure; answers how many the key has made (that are not forgotten). */
  recordFailure(key: string): number {
    const now = this.#clock.now().getTime();
    const entry = this.#current(key, now) ?? { count: 0, first: now, last: now };
    entry.count += 1;
    entry.last = now;
    // Re-inserting keeps the map in order of last failure, so the oldest go first.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxKeys) break;
      this.#entries.delete(oldest);
    }
    return entry.count;
  }

  /** A successful login clears the key's failures. */
  reset(key: string): void {
    this.#entries.delete(key);
  }
}

/**
 * Counts failed logins per client in a fixed window that starts at the first failure. Once a
 * client has used up its failures it is refused (even with the right password) until the
 * window ends.
 */
export class LoginLimiter extends FailedLogins {
  constructor({ maxFailures, windowMs, clock, maxClients = 10_000 }: LoginLimiterOptions) {
    super(clock, maxClients, {
      forgetAt: (failures) => failures.first + windowMs,
      retryAt: (failures) => (failures.count < maxFailures ? 0 : failures.first + windowMs),
    });
  }
}

export interface AccountBackoffOptions {
  /** Failures in a row that cost nothing (typos). */
  freeFailures: number;
  /** The longest wait one failure can impose. */
  maxDelayMs: number;
  /** Failures are forgotten after this long without one. */
  forgetAfterMs: number;
  clock: Clock;
  /** Accounts remembered at most; the oldest are forgotten first. */
  maxAccounts?: number;
}

/**
 * Failed logins per account, whatever address they come from: after `freeFailures` in a row,
 * each failure makes the next attempt wait 1 s, 2 s, 4 s … up to `maxDelayMs`. Guessing from
 * any number of addresses gets about one try per `maxDelayMs`, while the organiser is never
 * locked out for longer than that; a success clears the account.
 */
export class AccountBackoff extends FailedLogins {
  constructor(options: AccountBackoffOptions) {
    const { freeFailures, maxDelayMs, forgetAfterMs, clock, maxAccounts = 10_000 } = options;
    const delayAfter = (failures: number) => {
      const over = failures - freeFailures;
      return over <= 0 ? 0 : Math.min(maxDelayMs, 1_000 * 2 ** (over - 1));
    };
    super(clock, maxAccounts, {
      forgetAt: (failures) => failures.last + forgetAfterMs,
      retryAt: (failures) => failures.last + delayAfter(failures.count),
    });
  }
}

/** The eight 16-bit groups of an IPv6 address (zone left off), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0] ?? '';
  const dotted = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted?.[1]) {
    // A trailing IPv4 address is the last two groups.
    const bytes = dotted[1].split('.').map(Number);
    if (bytes.some((byte) => byte > 255)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string | undefined) => (part ? part.split(':') : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  return groups.map((group) => Number.parseInt(group, 16));
}

/**
 * The key failed logins are counted under for an address: an IPv4 address as it is (an
 * IPv4-mapped IPv6 one as its IPv4 address), an IPv6 address by its /64, since one home or
 * phone is given a whole /64 and can take any address in it.
 */
export function addressKey(address: string): string {
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
