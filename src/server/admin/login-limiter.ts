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
