import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import { reactionRequestSchema } from '../../shared/schemas/reaction.ts';
import { requireAttendee } from '../auth/callers.ts';
import { accessRules, routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';
import { reactionRateLimit } from '../http/transport/rate-limits.ts';
import { react } from './reaction.service.ts';

/** A tap is an emoji and a session's id: far below this. */
const REACTION_BODY = 512;

/** The answer to a tap taken. */
const REACTION_TAKEN = 'Reaction sent';

/** Reactions during a talk (decision 237): taps, summed live, stored nowhere. */
export const reactionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const access = accessRules(deps.callers);
  const route = routeOptions('Reactions');

  app.post(
    API_PATHS.reactions,
    route({
      summary: 'React during a talk, or to the whole event (an attendee, about once a second)',
      access: access.attendee,
      limit: [reactionRateLimit(app)],
      bodyLimit: REACTION_BODY,
      body: reactionRequestSchema,
      response: { 202: messageResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      await react(deps, requireAttendee(request), request.body);
      return cacheHeaders.noStore(reply.code(202)).send({ message: REACTION_TAKEN });
    },
  );
};
