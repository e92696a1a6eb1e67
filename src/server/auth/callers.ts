import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Unauthorized } from '../http/errors.ts';
import { CALLER } from '../http/transport/rate-limits.ts';
import type { Clock } from '../lib/clock.ts';
import {
  type AdminSession,
  type PartyKind,
  type PartyTokenSigner,
  type TokenCheck,
  bearerToken,
} from './tokens.ts';

/** An attendee named by a valid attendee token. */
export interface Attendee {
  id: string;
  username: string;
}

/**
 * Who a request comes from, as its route's access resolved it once, on request: nobody known,
 * an attendee, a speaker (whose token still matches their secret) or the admin.
 */
export type Caller =
  | { kind: 'anonymous' }
  | ({ kind: 'attendee' } & Attendee)
  | { kind: 'speaker'; speakerId: string }
  | { kind: 'admin'; session: AdminSession };

/** Who may change questions: the admin, or one speaker. */
export type Moderator = Extract<Caller, { kind: 'admin' | 'speaker' }>;

/** The caller of a request whose route reads no token, or whose token was optional and absent. */
export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/**
 * Which callers a route takes, each resolved from the `Authorization: Bearer` token alone:
 * `anyoneOrAttendee` and `anyoneOrModerator` take a request without a token, but a token that is
 * sent must be valid and of that kind.
 */
export type Accepts =
  'anyoneOrAttendee' | 'attendee' | 'erasingAttendee' | 'anyoneOrModerator' | 'moderator' | 'admin';

/**
 * Where the erasure of the attendees whose erasure began stands (decision 214), and when the
 * event's data was last purged (decision 218), kept in memory on every instance: an attendee
 * token is checked by its signature and this, never by reading the database.
 */
export interface AttendeeErasures {
  /** `erasing` once it began, `erased` once it finished, undefined for everyone else. */
  stateOf(attendeeId: string): 'erasing' | 'erased' | undefined;
  /** When the last purge removed the attendees: every token issued before it is refused. */
  readonly purgedAt: Date | undefined;
}

/** Attendee tokens last the conference and then some; speaker tokens as long. */
export const ATTENDEE_TOKEN_TTL_MS = 30 * 86_400_000;
export const SPEAKER_TOKEN_TTL_MS = 30 * 86_400_000;

/** Which secret a speaker token was issued under: the start of the secret's hash. */
export const secretVersionOf = (secretHash: string): string => secretHash.slice(0, 16);

/** A speaker secret as stored: its SHA-256 (the secret is 192 random bits, no salt needed). */
export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * Why a token was refused: a 401 with `message` (its name among the 401s of `http/errors.ts`),
 * and `challenge` as `WWW-Authenticate`.
 */
export interface Refusal {
  message: Unauthorized;
  challenge: string | undefined;
  reason: 'missing' | 'malformed' | 'forged' | 'expired' | 'stale' | 'erased';
}

export type Resolution = { ok: true; caller: Caller } | { ok: false; refusal: Refusal };

const invalidToken = (realm: string) => `Bearer realm="${realm}", error="invalid_token"`;

const refuse = (
  reason: Refusal['reason'],
  message: Unauthorized,
  challenge: string | undefined,
): Resolution => ({ ok: false, refusal: { message, challenge, reason } });

const anyone: Resolution = { ok: true, caller: ANONYMOUS };

/**
 * A time to the second, as a token's issue time is: a token issued in an earlier second than a
 * purge is refused, one of the purge's own second is not (a join just after it must work).
 */
const wholeSecond = (time: Date): number => Math.floor(time.getTime() / 1000) * 1000;

/**
 * Who calls, from an `Authorization` header: the admin, a speaker or an attendee, each with a
 * token of its own kind. A token of the wrong kind, forged or expired is refused (a 401 before
 * anything else happens, for a route). Routes resolve their caller through their access
 * (`auth/route-options.ts`), sockets through `moderationRoomOf` (`policies.ts`).
 */
/**
 * What resolving a caller needs of the admin's login (`admin/admin-auth.ts` is one): an
 * `Authorization` header checked against the admin's tokens.
 */
export interface AdminTokenCheck {
  authenticate(header: string | undefined): Promise<TokenCheck | { ok: false; reason: 'missing' }>;
}

export interface Callers {
  tokens: PartyTokenSigner;
  signAttendee(attendee: Attendee): Promise<string>;
  signSpeaker(speakerId: string, secretHash: string): Promise<string>;
  /** The caller `authorization` names, if `accepts` takes it: one check, one speaker read. */
  resolve(authorization: string | undefined, accepts: Accepts): Promise<Resolution>;
}

export function createCallers(deps: {
  db: Db;
  clock: Clock;
  admin: AdminTokenCheck;
  tokens: PartyTokenSigner;
  erasures: AttendeeErasures;
}): Callers {
  const { db, clock, admin, tokens, erasures } = deps;

  const verify = (kind: PartyKind, token: string) => tokens.verify(kind, token, clock.now());

  /** A speaker token is valid while its speaker exists and has the secret it was issued under. */
  async function speakerOfToken(token: string): Promise<{ id: string } | 'stale' | undefined> {
    const check = await verify('speaker', token);
    if (!check.ok) return undefined;
    const row = await db
      .selectFrom('speakers')
      .select('secret_hash')
      .where('id', '=', check.claims.subject)
      .executeTakeFirst();
    if (!row?.secret_hash || secretVersionOf(row.secret_hash) !== check.claims.secretVersion) {
      return 'stale';
    }
    return { id: check.claims.subject };
  }

  /**
   * An attendee token: valid while its attendee is not erased. Once their erasure began it is
   * refused, but where `erasing` takes it (to finish the erasure); once it finished, everywhere.
   * A token issued before the last purge (to the second) is refused everywhere: its attendee is
   * gone.
   */
  async function attendee(
    header: string | undefined,
    required: boolean,
    erasing = false,
  ): Promise<Resolution> {
    if (!header) return required ? refuse('missing', 'joinFirst', undefined) : anyone;
    const token = bearerToken(header);
    if (!token) return refuse('malformed', 'invalidToken', invalidToken('attendee'));
    const check = await verify('attendee', token);
    if (!check.ok) {
      const message = check.reason === 'expired' ? 'expired' : 'invalidToken';
      return refuse(check.reason, message, invalidToken('attendee'));
    }
    const { subject: id, name: username = '', issuedAt } = check.claims;
    const erasure = erasures.stateOf(id);
    const purgedAt = erasures.purgedAt;
    if (
      erasure === 'erased' ||
      (erasure === 'erasing' && !erasing) ||
      (purgedAt !== undefined && issuedAt.getTime() < wholeSecond(purgedAt))
    ) {
      return refuse('erased', 'erased', invalidToken('attendee'));
    }
    return { ok: true, caller: { kind: 'attendee', id, username } };
  }

  /** A speaker's own token, else the admin's. */
  async function moderator(header: string | undefined, required: boolean): Promise<Resolution> {
    if (!header) {
      return required ? refuse('missing', 'moderatorFirst', 'Bearer realm="speaker"') : anyone;
    }
    const token = bearerToken(header);
    if (!token) return refuse('malformed', 'invalidToken', invalidToken('speaker'));
    const speaker = await speakerOfToken(token);
    if (speaker === 'stale') {
      return refuse('stale', 'staleSpeakerLink', invalidToken('speaker'));
    }
    if (speaker) return { ok: true, caller: { kind: 'speaker', speakerId: speaker.id } };
    const check = await admin.authenticate(header);
    if (check.ok) return { ok: true, caller: { kind: 'admin', session: check.session } };
    const reason = check.reason === 'missing' ? 'malformed' : check.reason;
    const message = reason === 'expired' ? 'expired' : 'invalidToken';
    return refuse(reason, message, invalidToken('speaker'));
  }

  async function theAdmin(header: string | undefined): Promise<Resolution> {
    const check = await admin.authenticate(header);
    if (check.ok) return { ok: true, caller: { kind: 'admin', session: check.session } };
    if (check.reason === 'missing') {
      return refuse('missing', 'adminMissing', 'Bearer realm="admin"');
    }
    const message = check.reason === 'expired' ? 'adminExpired' : 'adminInvalid';
    return refuse(check.reason, message, invalidToken('admin'));
  }

  return {
    tokens,
    signAttendee: (who) =>
      tokens.sign(
        'attendee',
        { subject: who.id, name: who.username },
        clock.now(),
        ATTENDEE_TOKEN_TTL_MS,
      ),
    signSpeaker: (speakerId, secretHash) =>
      tokens.sign(
        'speaker',
        { subject: speakerId, secretVersion: secretVersionOf(secretHash) },
        clock.now(),
        SPEAKER_TOKEN_TTL_MS,
      ),
    resolve: (header, accepts) => {
      switch (accepts) {
        case 'anyoneOrAttendee':
          return attendee(header, false);
        case 'attendee':
          return attendee(header, true);
        case 'erasingAttendee':
          return attendee(header, true, true);
        case 'anyoneOrModerator':
          return moderator(header, false);
        case 'moderator':
          return moderator(header, true);
        case 'admin':
          return theAdmin(header);
      }
    },
  };
}

/** The caller its route's access resolved; anonymous for a route that reads no token. */
export const callerOf = (request: FastifyRequest): Caller =>
  request.getDecorator<Caller | null>(CALLER) ?? ANONYMOUS;

/** The attendee calling, if the route's access named one (rate limits key on it). */
export function attendeeOf(request: FastifyRequest): (Caller & { kind: 'attendee' }) | null {
  const caller = request.getDecorator<Caller | null>(CALLER);
  return caller?.kind === 'attendee' ? caller : null;
}

/** A route called by a caller its access does not take: a mistake in the route, not the call's. */
const notTaken = (route: string, caller: Caller) =>
  new Error(`A route open to ${route} alone was called by ${caller.kind}`);

/** The attendee of a route open to attendees alone (its access refused everyone else). */
export function requireAttendee(request: FastifyRequest): Caller & { kind: 'attendee' } {
  const caller = callerOf(request);
  if (caller.kind !== 'attendee') throw notTaken('attendees', caller);
  return caller;
}

/** The speaker or admin of a route open to moderators alone. */
export function requireModerator(request: FastifyRequest): Moderator {
  const caller = callerOf(request);
  if (caller.kind !== 'speaker' && caller.kind !== 'admin') throw notTaken('moderators', caller);
  return caller;
}

/** The admin's session, on a route open to the admin alone. */
export function requireAdmin(request: FastifyRequest): AdminSession {
  const caller = callerOf(request);
  if (caller.kind !== 'admin') throw notTaken('the admin', caller);
  return caller.session;
}
