import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  attendeeCreateRequestSchema,
  attendeeResponseSchema,
  joinChallengeResponseSchema,
} from '../../shared/schemas/attendee.ts';
import { routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { addressKey } from '../http/transport/address-key.ts';
import { writeRateLimit } from '../http/transport/rate-limits.ts';
import { joinAttendee } from './attendee.service.ts';
import type { JoinProofs } from './join-proof.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/**
 * Joining: an attendee gets a signed token naming a new attendee id and the username. Votes
 * need it; questions and uploads send it; per-person rate limits key on it (decision 111). Past
 * the free joins of an address a minute, a join costs a proof of work (decision 198).
 */
export const attendeeRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; proofs: JoinProofs }> = async (
  app,
  { deps, proofs },
) => {
  app.post(
    API_PATHS.attendeeChallenge,
    routeOptions('Attendees')({
      summary: 'A proof-of-work challenge to solve before joining, or null while joins are free',
      // Counted apart from the joins: a phone asks once, then joins.
      limit: writeRateLimit(app, deps.config.writeRateLimit),
      bodyLimit: 1024,
      response: { 200: joinChallengeResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const challenge = await proofs.challengeFor(addressKey(request.ip));
      cacheHeaders.noStore(reply);
      return { challenge };
    },
  );

  app.post(
    API_PATHS.attendees,
    routeOptions('Attendees')({
      summary: 'Join: get an attendee token for a username',
      limit: writeRateLimit(app, deps.config.writeRateLimit),
      bodyLimit: 4096,
      body: attendeeCreateRequestSchema,
      response: { 201: attendeeResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const joined = await joinAttendee(deps, proofs, addressKey(request.ip), request.body);
      cacheHeaders.noStore(reply);
      return reply.code(201).send(joined);
    },
  );
};
