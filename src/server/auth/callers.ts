import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { moderationRoom } from '../../shared/events.ts';
import type { AdminAuth } from '../admin/admin-auth.ts';
import {
  type AdminSession,
  type PartyKind,
  type PartyTokenSigner,
  bearerToken,
} from '../admin/admin-token.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { Clock } from '../lib/clock.ts';

/** An attendee named by a valid attendee token. */
export interface Attendee {
  id: string;
  username: string;
}

/** Who may change questions: the admin, or one speaker. */
export type Moderator =
  { kind: 'admin'; session: AdminSession } | { kind: 'speaker'; speakerId: string };

/** Attendee tokens last the conference and then some; speaker tokens as long. */
export const ATTENDEE_TOKEN_TTL_MS = 30 * 86_400_000;
export const SPEAKER_TOKEN_TTL_MS = 30 * 86_400_000;

/** The request decorator holding the attendee of a route that reads one (rate limits key on it). */
export const ATTENDEE = 'attendee';

/** Which secret a speaker token was issued under: the start of the secret's hash. */
export const secretVersionOf = (secretHash: string): string => secretHash.slice(0, 16);

/** A speaker secret as stored: its SHA-256 (the secret is 192 random bits, no salt needed). */
export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

const REASONS = {
  malformed: 'Invalid token',
  forged: 'Invalid token',
  expired: 'Your session has expired; sign in again',
} as const;

function unauthorized(reply: FastifyReply | undefined, realm: string, message: string): HttpError {
  reply?.header('www-authenticate', `Bearer realm="${realm}", error="invalid_token"`);
  return new HttpError(401, message);
}

/**
 * Who a request comes from, from its `Authorization: Bearer` token: the admin, a speaker or an
 * attendee, each with a token of its own kind. A token of the wrong kind, forged or expired is
 * a 401 before anything else happens.
 */
export interface Callers {
  admin: AdminAuth;
  tokens: PartyTokenSigner;
  signAttendee(attendee: Attendee): Promise<string>;
  signSpeaker(speakerId: string, secretHash: string): Promise<string>;
  /** onRequest hook: the attendee of the token when one is sent (401 when it is not valid). */
  identifyAttendee(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The attendee found by `identifyAttendee`, if any. */
  attendeeOf(request: FastifyRequest): Attendee | null;
  /** The attendee, or a 401 when no valid attendee token was sent. */
  requireAttendee(request: FastifyRequest): Attendee;
  /** The admin or a speaker, or a 401. */
  moderator(request: FastifyRequest, reply?: FastifyReply): Promise<Moderator>;
  /** The admin, or a 401. */
  requireAdmin(request: FastifyRequest, reply?: FastifyReply): Promise<AdminSession>;
}

export function createCallers(deps: {
  db: Db;
  clock: Clock;
  admin: AdminAuth;
  tokens: PartyTokenSigner;
}): Callers {
  const { db, clock, admin, tokens } = deps;

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

  const callers: Callers = {
    admin,
    tokens,
    signAttendee: (attendee) =>
      tokens.sign(
        'attendee',
        { subject: attendee.id, name: attendee.username },
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
    identifyAttendee: async (request, reply) => {
      const header = request.headers.authorization;
      if (!header) return;
      const token = bearerToken(header);
      if (!token) throw unauthorized(reply, 'attendee', REASONS.malformed);
      const check = await verify('attendee', token);
      if (!check.ok) throw unauthorized(reply, 'attendee', REASONS[check.reason]);
      request.setDecorator<Attendee | null>(ATTENDEE, {
        id: check.claims.subject,
        username: check.claims.name ?? '',
      });
    },
    attendeeOf: (request) => request.getDecorator<Attendee | null>(ATTENDEE),
    requireAttendee: (request) => {
      const attendee = callers.attendeeOf(request);
      if (!attendee) throw new HttpError(401, 'Join first: an attendee token is required');
      return attendee;
    },
    moderator: async (request, reply) => {
      const header = request.headers.authorization;
      if (!header) {
        reply?.header('www-authenticate', 'Bearer realm="speaker"');
        throw new HttpError(401, 'Sign in as the speaker (or the admin) first');
      }
      const token = bearerToken(header);
      if (!token) throw unauthorized(reply, 'speaker', REASONS.malformed);
      const speaker = await speakerOfToken(token);
      if (speaker === 'stale') {
        throw unauthorized(reply, 'speaker', 'This sign-in link is no longer valid; ask the admin');
      }
      if (speaker) return { kind: 'speaker', speakerId: speaker.id };
      const check = await admin.authenticate(header);
      if (check.ok) return { kind: 'admin', session: check.session };
      throw unauthorized(
        reply,
        'speaker',
        check.reason === 'expired' ? REASONS.expired : REASONS.malformed,
      );
    },
    requireAdmin: async (request, reply) => {
      const check = await admin.authenticate(request.headers.authorization);
      if (check.ok) return check.session;
      reply?.header(
        'www-authenticate',
        check.reason === 'missing'
          ? 'Bearer realm="admin"'
          : 'Bearer realm="admin", error="invalid_token"',
      );
      throw new HttpError(
        401,
        check.reason === 'missing'
          ? 'Admin login required'
          : check.reason === 'expired'
            ? 'Your admin session has expired; log in again'
            : 'Invalid admin token',
      );
    },
  };
  return callers;
}

/**
 * The moderation room a token may watch: the admin's (every question) or a speaker's own, for
 * a token that checks out; null for anything else.
 */
export const moderationRoomOf =
  (callers: Callers) =>
  async (token: string): Promise<string | null> => {
    const request = { headers: { authorization: `Bearer ${token}` } } as FastifyRequest;
    try {
      const by = await callers.moderator(request);
      return by.kind === 'admin' ? moderationRoom() : moderationRoom(by.speakerId);
    } catch {
      return null;
    }
  };
