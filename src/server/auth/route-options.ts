import type {
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { unauthorized } from '../http/errors.ts';
import { ADMIN_TOKEN, ATTENDEE_TOKEN, SPEAKER_TOKEN } from '../http/api-docs/openapi.ts';
import { CALLER } from '../http/transport/rate-limits.ts';
import { type Accepts, type Caller, type Callers } from './callers.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/**
 * Who may call a route: the check, run on request (before the body is read or validated), that
 * resolves the request's caller once, and the tokens the API's document names for it.
 */
export interface Access {
  check: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  security?: readonly Record<string, readonly string[]>[];
}

/**
 * The one onRequest hook of every route that reads a token: resolves the caller `accepts`
 * takes (a 401 with its challenge when the token does not do) and keeps it on the request, for
 * the handler, the services' policies and the per-person rate limits to read. The admin's
 * refusals are logged: somebody is trying the admin's routes.
 */
function resolveCaller(callers: Callers, accepts: Accepts): Access['check'] {
  return async (request, reply) => {
    const resolution = await callers.resolve(request.headers.authorization, accepts);
    if (!resolution.ok) {
      const { message, challenge, reason } = resolution.refusal;
      if (challenge) reply.header('www-authenticate', challenge);
      if (accepts === 'admin')
        request.log.info({ ip: request.ip, reason }, 'admin request refused');
      throw unauthorized(message);
    }
    request.setDecorator<Caller | null>(CALLER, resolution.caller);
  };
}

/** The callers a route may be open to (anyone when a route gives none). */
export function accessRules(callers: Callers) {
  const access = (accepts: Accepts, security?: Access['security']): Access => ({
    check: resolveCaller(callers, accepts),
    ...(security && { security }),
  });
  return {
    /** Anyone; a token that is sent must be a valid attendee token, and names the attendee. */
    anyoneOrAttendee: access('anyoneOrAttendee', [{}, ...ATTENDEE_TOKEN]),
    /** An attendee, by a valid attendee token. */
    attendee: access('attendee', ATTENDEE_TOKEN),
    /**
     * An attendee, by a valid attendee token, also while their erasure goes on (to finish it);
     * refused once it finished (decision 214).
     */
    erasingAttendee: access('erasingAttendee', ATTENDEE_TOKEN),
    /**
     * Anyone; a token that is sent must be a speaker's or the admin's, and shows that moderator
     * more. The API's document names no token for it, as before it had this access.
     */
    anyoneOrModerator: access('anyoneOrModerator'),
    /** A speaker, by their own token, or the admin. */
    moderator: access('moderator', [...SPEAKER_TOKEN, ...ADMIN_TOKEN]),
    /** The admin. */
    admin: access('admin', ADMIN_TOKEN),
  } satisfies Record<string, Access>;
}

/**
 * `access`, for a route whose answers are the caller's own: once the caller is let in (never on
 * a refusal), its answers are kept by no shared cache (`cache`, one of `cacheHeaders`) and vary on the token.
 */
export const answeredPrivately = (
  access: Access,
  cache: (reply: FastifyReply) => FastifyReply,
): Access => ({
  ...access,
  check: async (request, reply) => {
    await access.check(request, reply);
    cache(reply);
    reply.header('vary', 'Authorization');
  },
});

/**
 * The admin's access on the lists the admin screen polls (answered with an ETag and 304): their
 * answers are the admin's alone, kept by the browser and asked again each time (a download
 * beside them says `no-store` for itself).
 */
export const adminPolled = (admin: Access): Access =>
  answeredPrivately(admin, cacheHeaders.privateRevalidate);

/** A route as it is declared: its access, limits and schema (without the tag). */
export interface RouteSpec extends Omit<FastifySchema, 'tags' | 'security'> {
  summary: string;
  /** Anyone when not given. */
  access?: Access;
  /** The rate limit of a write, run before the handler. */
  limit?: preHandlerAsyncHookHandler | preHandlerAsyncHookHandler[];
  bodyLimit?: number;
}

/**
 * The route options of one part of the API, whose routes share a tag in the API's document:
 * who may call a route (its check on request, its security in the document), its rate limit and
 * body limit, and its schema. The schema's types reach the handler as they are given.
 */
export const routeOptions =
  (tag: string) =>
  <Spec extends RouteSpec>({ access, limit, bodyLimit, ...schema }: Spec) => ({
    ...(access && { onRequest: access.check }),
    ...(limit && { preHandler: limit }),
    ...(bodyLimit !== undefined && { bodyLimit }),
    schema: { tags: [tag], ...schema, ...(access?.security && { security: access.security }) },
  });
