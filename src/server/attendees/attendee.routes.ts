import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  attendeeCreateRequestSchema,
  attendeeResponseSchema,
} from '../../shared/schemas/attendee.ts';
import { routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { writeRateLimit } from '../http/rate-limits.ts';
import { newId } from '../lib/ids.ts';
import { insertAttendee } from './attendee.repository.ts';

/**
 * Joining: an attendee gets a signed token naming a new attendee id and the username. Votes
 * need it; questions and uploads send it; per-person rate limits key on it (decision 111).
 */
export const attendeeRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    API_PATHS.attendees,
    routeOptions('Attendees')({
      summary: 'Join: get an attendee token for a username',
      limit: writeRateLimit(app, deps.config.writeRateLimit),
      bodyLimit: 1024,
      body: attendeeCreateRequestSchema,
      response: { 201: attendeeResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const attendee = { id: newId(), username: request.body.username };
      await insertAttendee(deps.db, { ...attendee, createdAt: deps.clock.now().toISOString() });
      const token = await deps.callers.signAttendee(attendee);
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ username: attendee.username, token });
    },
  );
};
