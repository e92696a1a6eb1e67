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
import { ReactionSums } from '../realtime/reaction-sums.ts';
import { react } from './reaction.service.ts';

/** A tap is an emoji and a session's id: far below this. */
const REACTION_BODY = 512;

/** The answer to a tap taken. */
const REACTION_TAKEN = 'Reaction sent';

/** Reactions during a talk (decision 237): taps, summed live, stored nowhere. */
export const reactionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const access = accessRules(deps.callers);
  const route = routeOptions('Reactions');
  // This instance's taps, summed over a window before they cross to the other instances: the
  // bus carries at most 4 sums a second per session and instance, however many tap, and a tap's
  // answer waits for no one (decision 245). A sum the bus loses is a moment of applause.
  const tally = new ReactionSums((sessionId, counts) => {
    deps.events.publish({ type: 'reacted', sessionId, counts }).catch((error: unknown) => {
      app.log.warn({ err: error }, 'reactions could not be published');
    });
  });
  app.addHook('onClose', () => {
    tally.stop();
  });

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
      await react(deps, tally, requireAttendee(request), request.body);
      return cacheHeaders.noStore(reply.code(202)).send({ message: REACTION_TAKEN });
    },
  );
};
