import type {
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMIN_TOKEN, ATTENDEE_TOKEN, SPEAKER_TOKEN } from '../http/api-docs/openapi.ts';
import type { Callers } from './callers.ts';

/**
 * Who may call a route: the check, run on request (before the body is read or validated), and
 * the tokens the API's document names for it.
 */
export interface Access {
  check?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  security: readonly Record<string, readonly string[]>[];
}

/** The callers a route may be open to, each checked by `callers`. */
export function accessRules(callers: Callers) {
  return {
    /** Anyone; a token that is sent must be a valid attendee token, and names the attendee. */
    anyoneOrAttendee: {
      check: (request, reply) => callers.identifyAttendee(request, reply),
      security: [{}, ...ATTENDEE_TOKEN],
    },
    /** An attendee, by a valid attendee token. */
    attendee: {
      check: async (request, reply) => {
        await callers.identifyAttendee(request, reply);
        callers.requireAttendee(request);
      },
      security: ATTENDEE_TOKEN,
    },
    /** A speaker, by their own token, or the admin. */
    moderator: {
      check: async (request, reply) => {
        await callers.moderator(request, reply);
      },
      security: [...SPEAKER_TOKEN, ...ADMIN_TOKEN],
    },
    /** The admin. */
    admin: {
      check: async (request, reply) => {
        await callers.requireAdmin(request, reply);
      },
      security: ADMIN_TOKEN,
    },
  } satisfies Record<string, Access>;
}

/** The admin, for the routes of a plugin whose own hook checks the admin token first. */
export const ADMIN_BY_HOOK: Access = { security: ADMIN_TOKEN };

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
    ...(access?.check && { onRequest: access.check }),
    ...(limit && { preHandler: limit }),
    ...(bodyLimit !== undefined && { bodyLimit }),
    schema: { tags: [tag], ...schema, ...(access && { security: access.security }) },
  });

/**
 * Routes of the lists the admin screen polls (answered with an ETag and 304), behind `check` when
 * the admin's token is not checked already: their answers are the admin's alone, kept by the
 * browser and asked again each time (a download beside them says `no-store` for itself).
 */
export const adminPolled =
  (routes: FastifyPluginAsyncZod, check?: Access['check']): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      await check?.(request, reply);
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'Authorization');
    });
    await app.register(routes);
  };
