import { createHmac, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { API_PATHS } from '../../shared/routes.ts';

/**
 * The cookie a browser is given when the admin logs in with it (decision 195): it proves the
 * browser has logged in before, so other people's failed logins do not lock it out.
 */
export const DEVICE_COOKIE = 'confab-admin-device';
/** How long a browser stays known after its last successful login. */
export const DEVICE_COOKIE_TTL_MS = 180 * 86_400_000;
/** Sent to the admin's calls under /api/admin only: the login reads it, the others do not. */
const DEVICE_COOKIE_PATH = API_PATHS.adminCheck;

const ISSUER = 'confab';
const AUDIENCE = 'confab:admin-device';
/** A compact JWS of the size we sign; anything else is not looked at. */
const COOKIE_SHAPE = /^[A-Za-z0-9_-]{1,128}\.[A-Za-z0-9_-]{1,512}\.[A-Za-z0-9_-]{43}$/;
/** Values of our cookie read from one request at most (a browser sends one). */
const MAX_CANDIDATES = 4;

export interface DeviceCookieSignerOptions {
  /** SESSION_SECRET, or a random secret of this process. */
  secret: string | Buffer;
  username: string;
  password: string;
}

/**
 * Signs and checks device cookies: HS256 JWTs naming the admin's login name and a random nonce
 * (the device's own failure count is kept under it). The key is derived from the secret and
 * the credentials, as the admin token's is: a new secret or a new password forgets every device.
 */
export class DeviceCookieSigner {
  readonly #key: Uint8Array;
  readonly #username: string;

  constructor({ secret, username, password }: DeviceCookieSignerOptions) {
    this.#username = username;
    this.#key = createHmac('sha256', secret)
      .update(`confab admin device v1\u0000${username}\u0000${password}`)
      .digest();
  }

  /** A new cookie value, with a nonce of its own. */
  sign(now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT()
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(this.#username)
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + Math.floor(DEVICE_COOKIE_TTL_MS / 1000))
      .sign(this.#key);
  }

  /** The nonce of the first of `values` that is one of our cookies, unexpired; else undefined. */
  async nonceOf(values: readonly string[], now: Date): Promise<string | undefined> {
    for (const value of values) {
      if (!COOKIE_SHAPE.test(value)) continue;
      try {
        const { payload } = await jwtVerify(value, this.#key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          subject: this.#username,
          requiredClaims: ['iat', 'exp', 'jti'],
          currentDate: now,
          clockTolerance: 0,
        });
        if (payload.jti) return payload.jti;
      } catch {
        // Forged, expired or another account's: the next one, if any.
      }
    }
    return undefined;
  }
}

/** The values of our cookie in a `Cookie` request header (at most a few). */
export function deviceCookiesOf(header: string | undefined): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== DEVICE_COOKIE) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1);
    }
    values.push(value);
    if (values.length === MAX_CANDIDATES) break;
  }
  return values;
}

/**
 * The `Set-Cookie` value for a device cookie: script cannot read it, other sites' requests do
 * not carry it, it goes to the admin's calls only, and over HTTPS only when it came over HTTPS.
 */
export function deviceCookieHeader(value: string, secure: boolean): string {
  return [
    `${DEVICE_COOKIE}=${value}`,
    `Max-Age=${Math.floor(DEVICE_COOKIE_TTL_MS / 1000)}`,
    `Path=${DEVICE_COOKIE_PATH}`,
    'HttpOnly',
    ...(secure ? ['Secure'] : []),
    'SameSite=Strict',
  ].join('; ');
}
