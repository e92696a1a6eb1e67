import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** What a valid token says: who the admin is and until when. */
export interface AdminSession {
  username: string;
  issuedAt: Date;
  expiresAt: Date;
}

export type TokenCheck =
  { ok: true; session: AdminSession } | { ok: false; reason: 'malformed' | 'forged' | 'expired' };

const payloadSchema = z.object({
  v: z.literal(1),
  sub: z.string().min(1),
  iat: z.number().int().nonnegative(),
  exp: z.number().int().positive(),
});

/** `<payload>.<signature>`, both base64url; the signature is a SHA-256 HMAC (43 characters). */
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{1,1024})\.([A-Za-z0-9_-]{43})$/;

export interface TokenSignerOptions {
  /** SESSION_SECRET, or a random secret of this process. */
  secret: string | Buffer;
  /** The configured credentials: changing either revokes every token issued before. */
  username: string;
  password: string;
}

/**
 * Signs and checks admin tokens: a small JSON payload (subject, issued, expires, in ms since
 * the epoch) and its HMAC-SHA256. The key is derived from the secret and the credentials, so a
 * new secret or a new admin password makes every earlier token invalid.
 */
export class AdminTokenSigner {
  readonly #key: Buffer;
  readonly #username: string;

  constructor({ secret, username, password }: TokenSignerOptions) {
    this.#username = username;
    this.#key = createHmac('sha256', secret)
      .update(`confab admin token v1\u0000${username}\u0000${password}`)
      .digest();
  }

  #signature(payload: string): Buffer {
    return createHmac('sha256', this.#key).update(payload).digest();
  }

  sign(now: Date, ttlMs: number): { token: string; session: AdminSession } {
    const iat = now.getTime();
    const exp = iat + ttlMs;
    const payload = Buffer.from(
      JSON.stringify({ v: 1, sub: this.#username, iat, exp }),
      'utf8',
    ).toString('base64url');
    const token = `${payload}.${this.#signature(payload).toString('base64url')}`;
    return {
      token,
      session: { username: this.#username, issuedAt: new Date(iat), expiresAt: new Date(exp) },
    };
  }

  verify(token: string, now: Date): TokenCheck {
    const match = TOKEN_SHAPE.exec(token);
    if (!match) return { ok: false, reason: 'malformed' };
    const [, payload = '', signature = ''] = match;
    const given = Buffer.from(signature, 'base64url');
    const expected = this.#signature(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { ok: false, reason: 'forged' };
    }
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    const parsed = payloadSchema.safeParse(decoded);
    // A signed payload of another shape or for another user can only come from an older key.
    if (!parsed.success || parsed.data.sub !== this.#username)
      return { ok: false, reason: 'forged' };
    if (now.getTime() >= parsed.data.exp) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      session: {
        username: parsed.data.sub,
        issuedAt: new Date(parsed.data.iat),
        expiresAt: new Date(parsed.data.exp),
      },
    };
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match?.[1];
}
