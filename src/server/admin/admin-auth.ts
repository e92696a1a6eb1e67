import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import {
  type AdminSession,
  AdminTokenSigner,
  type TokenCheck,
  bearerToken,
} from './admin-token.ts';
import { AccountBackoff, LoginLimiter } from './login-limiter.ts';

/** A password for this run: 144 random bits, 24 URL-safe characters. */
export const generatePassword = (): string => randomBytes(18).toString('base64url');

/**
 * The admin password: ADMIN_PASSWORD, or one generated at start and logged once (warn), so
 * there is never a fixed default password.
 */
export function resolveAdminPassword(
  config: Pick<Config, 'adminUsername' | 'adminPassword'>,
  log: Pick<FastifyBaseLogger, 'warn'>,
): string {
  if (config.adminPassword) return config.adminPassword;
  const password = generatePassword();
  log.warn(
    { adminUsername: config.adminUsername },
    `ADMIN_PASSWORD is not set. Admin login for this run: username "${config.adminUsername}", ` +
      `password "${password}". It changes at every start; set ADMIN_PASSWORD to choose one.`,
  );
  return password;
}

/** Compares two strings in time that does not depend on where they differ. */
function sameText(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export type LoginResult =
  | { outcome: 'ok'; token: string; session: AdminSession }
  | { outcome: 'invalid'; failures: number }
  | { outcome: 'blocked'; retryAfterMs: number };

export type AuthCheck = TokenCheck | { ok: false; reason: 'missing' };

export interface AdminAuth {
  /** A login attempt from the address `client` (the request's address). */
  login(credentials: { username: string; password: string }, client: string): Promise<LoginResult>;
  /** Checks an `Authorization` header value. */
  authenticate(header: string | undefined): Promise<AuthCheck>;
  /** The username, and the password generated for this run when ADMIN_PASSWORD is not set. */
  readonly firstRun: { username: string; generatedPassword: string | undefined };
}

/**
 * The admin's credentials, token signer and failed-login limiter, built once per app. Without
 * SESSION_SECRET the signing secret is random for this process, so tokens end with it.
 */
export function createAdminAuth(
  deps: { config: Config; clock: Clock },
  log: FastifyBaseLogger,
): AdminAuth {
  const { config, clock } = deps;
  const username = config.adminUsername;
  const password = resolveAdminPassword(config, log);
  if (!config.sessionSecret) {
    log.info('SESSION_SECRET is not set: admin sessions end when this server stops');
  }
  const signer = new AdminTokenSigner({
    secret: config.sessionSecret ?? randomBytes(32),
    username,
    password,
  });
  // Two limits on failures (decision 127): per address, a fixed allowance a success clears;
  // per account (the username tried), whatever the address, a wait that doubles with each one.
  const perAddress = new LoginLimiter({
    maxFailures: config.adminLogin.perAddress,
    windowMs: config.adminLogin.windowMs,
    clock,
  });
  const perAccount = new AccountBackoff({
    freeFailures: config.adminLogin.freeFailures,
    maxDelayMs: config.adminLogin.maxDelayMs,
    forgetAfterMs: config.adminLogin.windowMs,
    clock,
  });

  return {
    firstRun: {
      username,
      generatedPassword: config.adminPassword ? undefined : password,
    },
    login: async (credentials, client) => {
      // The one admin account, or any other name: two counters at most, so a flood of made-up
      // names can neither fill memory nor push the real account's count out of it.
      const account = sameText(credentials.username.trim().toLowerCase(), username.toLowerCase())
        ? 'admin'
        : 'other';
      const retryAfterMs = Math.max(
        perAddress.retryAfterMs(client),
        perAccount.retryAfterMs(account),
      );
      if (retryAfterMs > 0) return { outcome: 'blocked', retryAfterMs };
      // Both comparisons always run, so the time does not tell which one failed.
      const userMatches = sameText(credentials.username, username);
      const passwordMatches = sameText(credentials.password, password);
      if (!userMatches || !passwordMatches) {
        perAccount.recordFailure(account);
        return { outcome: 'invalid', failures: perAddress.recordFailure(client) };
      }
      perAddress.reset(client);
      perAccount.reset(account);
      return { outcome: 'ok', ...(await signer.sign(clock.now(), config.adminTokenTtlMs)) };
    },
    authenticate: async (header) => {
      if (!header) return { ok: false, reason: 'missing' };
      const token = bearerToken(header);
      if (!token) return { ok: false, reason: 'malformed' };
      return signer.verify(token, clock.now());
    },
  };
}
