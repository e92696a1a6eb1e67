import { createHmac } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';

/** What a valid token says: who the admin is and until when. */
export interface AdminSession {
  username: string;
  issuedAt: Date;
  expiresAt: Date;
}

export type TokenCheck =
  { ok: true; session: AdminSession } | { ok: false; reason: 'malformed' | 'forged' | 'expired' };

/** A compact JWS is three base64url parts; anything longer than this is not one of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,512}\.[A-Za-z0-9_-]{1,1024}\.[A-Za-z0-9_-]{43}$/;
const ISSUER = 'confab';
const AUDIENCE = 'confab:admin';

export interface TokenSignerOptions {
  /** SESSION_SECRET, or a random secret of this process. */
  secret: string | Buffer;
  /** The configured credentials: changing either revokes every token issued before. */
  username: string;
  password: string;
}

/**
 * Signs and checks admin tokens: JWTs (HS256, through `jose`) naming the admin, when they were
 * issued and when they expire. The key is derived from the secret and the credentials, so a new
 * secret or a new admin password makes every earlier token invalid.
 */
export class AdminTokenSigner {
  readonly #key: Uint8Array;
  readonly #username: string;

  constructor({ secret, username, password }: TokenSignerOptions) {
    this.#username = username;
    this.#key = createHmac('sha256', secret)
      .update(`confab admin token v2\u0000${username}\u0000${password}`)
      .digest();
  }

  async sign(now: Date, ttlMs: number): Promise<{ token: string; session: AdminSession }> {
    const issuedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const expiresAt = new Date(issuedAt.getTime() + ttlMs);
    const token = await new SignJWT()
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(this.#username)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.#key);
    return { token, session: { username: this.#username, issuedAt, expiresAt } };
  }

  async verify(token: string, now: Date): Promise<TokenCheck> {
    if (!TOKEN_SHAPE.test(token)) return { ok: false, reason: 'malformed' };
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        subject: this.#username,
        requiredClaims: ['iat', 'exp'],
        currentDate: now,
        clockTolerance: 0,
      });
      const { iat = 0, exp = 0 } = payload;
      return {
        ok: true,
        session: {
          username: this.#username,
          issuedAt: new Date(iat * 1000),
          expiresAt: new Date(exp * 1000),
        },
      };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
      // A valid signature over other claims can only come from an older key or another kind.
      if (
        error instanceof joseErrors.JWSSignatureVerificationFailed ||
        error instanceof joseErrors.JWTClaimValidationFailed
      ) {
        return { ok: false, reason: 'forged' };
      }
      return { ok: false, reason: 'malformed' };
    }
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match?.[1];
}
