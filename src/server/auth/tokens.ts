import { createHmac, webcrypto } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { keepRecent } from '../lib/keep-recent.ts';

/** What a valid token says: who the admin is and until when. */
export interface AdminSession {
  username: string;
  issuedAt: Date;
  expiresAt: Date;
}

export type TokenCheck = { ok: true; session: AdminSession } | { ok: false; reason: Refusal };

/** A compact JWS is three base64url parts; anything longer than this is not one of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,512}\.[A-Za-z0-9_-]{1,1024}\.[A-Za-z0-9_-]{43}$/;
const ISSUER = 'confab';
const AUDIENCE = 'confab:admin';

type Refusal = 'malformed' | 'forged' | 'expired';

/** Why jose refused a token, for every kind of token. */
function refusalOf(error: unknown): Refusal {
  if (error instanceof joseErrors.JWTExpired) return 'expired';
  // A valid signature over other claims can only come from an older key or another kind.
  if (
    error instanceof joseErrors.JWSSignatureVerificationFailed ||
    error instanceof joseErrors.JWTClaimValidationFailed
  ) {
    return 'forged';
  }
  return 'malformed';
}

export interface TokenSignerOptions {
  /** SESSION_SECRET, or a random secret of this process. */
  secret: string | Buffer;
  /** The configured credentials: changing either revokes every token issued before. */
  username: string;
  password: string;
}

/**
 * An HS256 key imported into WebCrypto once, at its first use: `jose` imports a key given as
 * bytes again at every signature and check, which cost as much as the check itself.
 */
function hmacKey(bytes: Uint8Array): () => Promise<webcrypto.CryptoKey> {
  let key: Promise<webcrypto.CryptoKey> | undefined;
  return () =>
    (key ??= webcrypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]));
}

/**
 * Signs and checks admin tokens: JWTs (HS256, through `jose`) naming the admin, when they were
 * issued and when they expire. The key is derived from the secret and the credentials, so a new
 * secret or a new admin password makes every earlier token invalid.
 */
export class AdminTokenSigner {
  readonly #key: () => Promise<webcrypto.CryptoKey>;
  readonly #username: string;

  constructor({ secret, username, password }: TokenSignerOptions) {
    this.#username = username;
    this.#key = hmacKey(
      createHmac('sha256', secret)
        .update(`confab admin token v2\u0000${username}\u0000${password}`)
        .digest(),
    );
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
      .sign(await this.#key());
    return { token, session: { username: this.#username, issuedAt, expiresAt } };
  }

  async verify(token: string, now: Date): Promise<TokenCheck> {
    if (!TOKEN_SHAPE.test(token)) return { ok: false, reason: 'malformed' };
    try {
      const { payload } = await jwtVerify(token, await this.#key(), {
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
      return { ok: false, reason: refusalOf(error) };
    }
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match?.[1];
}

/** Valid tokens an instance remembers (about 300 bytes each): a large event's attendees. */
const VERIFIED_TOKENS_KEPT = 20_000;

/** The two kinds of token besides the admin's, each with its own key and audience. */
export type PartyKind = 'attendee' | 'speaker';

/** What a valid attendee or speaker token says. */
export interface PartyClaims {
  /** The attendee's id, or the speaker's id. */
  subject: string;
  /** The attendee's username. */
  name: string | undefined;
  /** A speaker token: which secret it was issued under (a new secret ends older tokens). */
  secretVersion: string | undefined;
  /** When it was issued (to the second). */
  issuedAt: Date;
}

export type PartyTokenCheck = { ok: true; claims: PartyClaims } | { ok: false; reason: Refusal };

/**
 * Signs and checks attendee and speaker tokens the way admin tokens are: HS256 JWTs through
 * `jose`, issuer `confab`, an audience per kind (`confab:attendee`, `confab:speaker`) and a key
 * per kind derived from the secret, so a token of one kind is refused where another is wanted.
 */
export class PartyTokenSigner {
  readonly #keys: Record<PartyKind, () => Promise<webcrypto.CryptoKey>>;
  /**
   * Tokens already found valid, with what they say and when they expire (`exp`, in seconds): an
   * attendee sends the same token with every call, and checking its signature again (WebCrypto's
   * HMAC through `jose`) was a tenth of a millisecond of every tap of a reaction. A token is the
   * same string with the same signature until it expires, so a cached answer is the one a new
   * check would give; an expired one is checked again, which refuses it. The oldest go first.
   */
  readonly #verified = new Map<string, { claims: PartyClaims; expiresAt: number }>();

  constructor(secret: string | Buffer) {
    const key = (kind: PartyKind) =>
      hmacKey(createHmac('sha256', secret).update(`confab ${kind} token v1`).digest());
    this.#keys = { attendee: key('attendee'), speaker: key('speaker') };
  }

  async sign(
    kind: PartyKind,
    claims: { subject: string; name?: string; secretVersion?: string },
    now: Date,
    ttlMs: number,
  ): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({
      ...(claims.name === undefined ? {} : { name: claims.name }),
      ...(claims.secretVersion === undefined ? {} : { sv: claims.secretVersion }),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(`confab:${kind}`)
      .setSubject(claims.subject)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + Math.floor(ttlMs / 1000))
      .sign(await this.#keys[kind]());
  }

  async verify(kind: PartyKind, token: string, now: Date): Promise<PartyTokenCheck> {
    if (!TOKEN_SHAPE.test(token)) return { ok: false, reason: 'malformed' };
    const key = `${kind} ${token}`;
    const known = this.#verified.get(key);
    if (known && known.expiresAt > Math.floor(now.getTime() / 1000)) {
      return { ok: true, claims: known.claims };
    }
    try {
      const { payload } = await jwtVerify(token, await this.#keys[kind](), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: `confab:${kind}`,
        requiredClaims: ['iat', 'exp', 'sub'],
        currentDate: now,
        clockTolerance: 0,
      });
      const name = typeof payload.name === 'string' ? payload.name : undefined;
      const sv = typeof payload.sv === 'string' ? payload.sv : undefined;
      const claims: PartyClaims = {
        subject: payload.sub ?? '',
        name,
        secretVersion: sv,
        issuedAt: new Date((payload.iat ?? 0) * 1000),
      };
      keepRecent(
        this.#verified,
        key,
        { claims, expiresAt: payload.exp ?? 0 },
        VERIFIED_TOKENS_KEPT,
      );
      return { ok: true, claims };
    } catch (error) {
      return { ok: false, reason: refusalOf(error) };
    }
  }
}
