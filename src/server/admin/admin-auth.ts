import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import {
  type AdminSession,
  AdminTokenSigner,
  type TokenCheck,
  bearerToken,
} from '../auth/tokens.ts';
import { DeviceCookieSigner } from './device-cookie.ts';
import { addressKey } from '../http/transport/address-key.ts';
import { AccountBackoff, LoginLimiter } from './login-limiter.ts';

/** A password for this run: 144 random bits, 24 URL-safe characters. */
export const generatePassword = (): string => randomBytes(18).toString('base64url');

/**
 * The admin password: ADMIN_PASSWORD, or one generated at start, so there is never a fixed
 * default password. The log (warn) only says one was generated: log collectors keep their lines,
 * so the password itself is printed on a plain line for the person at the terminal (`main.ts`).
 */
export function resolveAdminPassword(
  config: Pick<Config, 'adminUsername' | 'adminPassword'>,
  log: Pick<FastifyBaseLogger, 'warn'>,
): string {
  if (config.adminPassword) return config.adminPassword;
  const password = generatePassword();
  log.warn(
    { adminUsername: config.adminUsername },
    `ADMIN_PASSWORD is not set: a password was generated for this run (username ` +
      `"${config.adminUsername}"), printed once on the server's standard output. It changes at ` +
      'every start; set ADMIN_PASSWORD to choose one.',
  );
  return password;
}

/** Compares two strings in time that does not depend on where they differ. */
function sameText(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Who tries to log in: the request's address, and the values of the device cookie it sent
 * (none from a browser that has not logged in before).
 */
export interface LoginClient {
  address: string;
  deviceCookies: readonly string[];
}

/** `knownDevice`: the attempt came with a valid device cookie for the account it names. */
export type LoginResult = { knownDevice: boolean } & (
  | { outcome: 'ok'; token: string; session: AdminSession; deviceCookie: string }
  | { outcome: 'invalid'; failures: number }
  | { outcome: 'blocked'; retryAfterMs: number }
);

export type AuthCheck = TokenCheck | { ok: false; reason: 'missing' };

export interface AdminAuth {
  /** A login attempt; a success answers a new device cookie for the browser as well. */
  login(
    credentials: { username: string; password: string },
    client: LoginClient,
  ): Promise<LoginResult>;
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
  const secret = config.sessionSecret ?? randomBytes(32);
  const signer = new AdminTokenSigner({ secret, username, password });
  const devices = new DeviceCookieSigner({ secret, username, password });
  // An unknown browser's failures are limited twice (decision 127): per address (an IPv6 /64),
  // a fixed allowance a success clears; per account (the username tried), whatever the address,
  // a wait that doubles with each one. A browser with a valid device cookie is limited by its
  // own failures only, so nobody else's can lock it out (decision 195).
  const perDevice = new LoginLimiter({
    maxFailures: config.adminLogin.perAddress,
    windowMs: config.adminLogin.windowMs,
    clock,
  });
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
      // A device cookie counts only for the account it was issued to.
      const device =
        account === 'admin' && client.deviceCookies.length > 0
          ? await devices.nonceOf(client.deviceCookies, clock.now())
          : undefined;
      const knownDevice = device !== undefined;
      const address = addressKey(client.address);
      const retryAfterMs = device
        ? perDevice.retryAfterMs(device)
        : Math.max(perAddress.retryAfterMs(address), perAccount.retryAfterMs(account));
      if (retryAfterMs > 0) return { outcome: 'blocked', retryAfterMs, knownDevice };
      // Both comparisons always run, so the time does not tell which one failed.
      const userMatches = sameText(credentials.username, username);
      const passwordMatches = sameText(credentials.password, password);
      if (!userMatches || !passwordMatches) {
        if (device) {
          return { outcome: 'invalid', failures: perDevice.recordFailure(device), knownDevice };
        }
        perAccount.recordFailure(account);
        return { outcome: 'invalid', failures: perAddress.recordFailure(address), knownDevice };
      }
      // A known browser's success clears its own count only: the others on its address, and
      // the account's wait, are not let off by it.
      if (device) {
        perDevice.reset(device);
      } else {
        perAddress.reset(address);
        perAccount.reset(account);
      }
      const now = clock.now();
      return {
        outcome: 'ok',
        knownDevice,
        ...(await signer.sign(now, config.adminTokenTtlMs)),
        deviceCookie: await devices.sign(now),
      };
    },
    authenticate: async (header) => {
      if (!header) return { ok: false, reason: 'missing' };
      const token = bearerToken(header);
      if (!token) return { ok: false, reason: 'malformed' };
      return signer.verify(token, clock.now());
    },
  };
}
