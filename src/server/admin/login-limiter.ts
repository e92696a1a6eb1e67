import type { Clock } from '../lib/clock.ts';

export interface LoginLimiterOptions {
  /** Failed attempts a client may make within one window. */
  maxFailures: number;
  windowMs: number;
  clock: Clock;
  /** Clients remembered at most; the oldest are forgotten first. */
  maxClients?: number;
}

interface Entry {
  failures: number;
  windowStart: number;
}

/**
 * Counts failed logins per client in a fixed window that starts at the first failure. Once a
 * client has used up its failures it is refused (even with the right password) until the
 * window ends. Kept in memory: each app instance counts on its own.
 */
export class LoginLimiter {
  readonly #entries = new Map<string, Entry>();
  readonly #options: Required<LoginLimiterOptions>;

  constructor(options: LoginLimiterOptions) {
    this.#options = { maxClients: 10_000, ...options };
  }

  #current(client: string, now: number): Entry | undefined {
    const entry = this.#entries.get(client);
    if (entry && now - entry.windowStart >= this.#options.windowMs) {
      this.#entries.delete(client);
      return undefined;
    }
    return entry;
  }

  /** Milliseconds until the client may try again; 0 when it may try now. */
  retryAfterMs(client: string): number {
    const now = this.#options.clock.now().getTime();
    const entry = this.#current(client, now);
    if (!entry || entry.failures < this.#options.maxFailures) return 0;
    return entry.windowStart + this.#options.windowMs - now;
  }

  /** Records a failure; answers how many the client has made in this window. */
  recordFailure(client: string): number {
    const now = this.#options.clock.now().getTime();
    const entry = this.#current(client, now) ?? { failures: 0, windowStart: now };
    entry.failures += 1;
    // Re-inserting keeps the map in order of last failure, so the oldest go first.
    this.#entries.delete(client);
    this.#entries.set(client, entry);
    this.#prune();
    return entry.failures;
  }

  /** A successful login clears the client's failures. */
  reset(client: string): void {
    this.#entries.delete(client);
  }

  #prune(): void {
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#options.maxClients) return;
      this.#entries.delete(key);
    }
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
export class AccountBackoff {
  readonly #entries = new Map<string, { failures: number; last: number }>();
  readonly #options: Required<AccountBackoffOptions>;

  constructor(options: AccountBackoffOptions) {
    this.#options = { maxAccounts: 10_000, ...options };
  }

  #delayAfter(failures: number): number {
    const over = failures - this.#options.freeFailures;
    if (over <= 0) return 0;
    return Math.min(this.#options.maxDelayMs, 1_000 * 2 ** (over - 1));
  }

  #current(account: string, now: number) {
    const entry = this.#entries.get(account);
    if (entry && now - entry.last >= this.#options.forgetAfterMs) {
      this.#entries.delete(account);
      return undefined;
    }
    return entry;
  }

  /** Milliseconds until the account may be tried again; 0 when it may be now. */
  retryAfterMs(account: string): number {
    const now = this.#options.clock.now().getTime();
    const entry = this.#current(account, now);
    if (!entry) return 0;
    return Math.max(0, entry.last + this.#delayAfter(entry.failures) - now);
  }

  recordFailure(account: string): number {
    const now = this.#options.clock.now().getTime();
    const entry = this.#current(account, now) ?? { failures: 0, last: now };
    entry.failures += 1;
    entry.last = now;
    this.#entries.delete(account);
    this.#entries.set(account, entry);
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#options.maxAccounts) break;
      this.#entries.delete(key);
    }
    return entry.failures;
  }

  reset(account: string): void {
    this.#entries.delete(account);
  }
}
