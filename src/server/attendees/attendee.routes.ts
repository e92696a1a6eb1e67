import type { DataStore } from '@tus/server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  attendeeCreateRequestSchema,
  attendeeResponseSchema,
  joinChallengeResponseSchema,
} from '../../shared/schemas/attendee.ts';
import { attendeeExportSchema, erasureResponseSchema } from '../../shared/schemas/privacy.ts';
import { requireAttendee } from '../auth/callers.ts';
import { accessRules, routeOptions } from '../auth/route-options.ts';
import { tooManyRequests } from '../http/errors.ts';
import type { AppDeps } from '../deps.ts';
import { addressKey } from '../http/transport/address-key.ts';
import { writeRateLimit } from '../http/transport/rate-limits.ts';
import { joinAttendee } from './attendee.service.ts';
import { archiveSlots, sendArchive } from '../memories/memories-archive.ts';
import { attendeeArchive, eraseAttendee, exportAttendee } from './erasure.service.ts';
import type { JoinProofs } from './join-proof.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/** Archives of one attendee's memories made at once by one instance. */
const MAX_OWN_ARCHIVES_AT_ONCE = 4;

/**
 * Joining: an attendee gets a signed token naming a new attendee id and the username. Votes
 * need it; questions and uploads send it; per-person rate limits key on it (decision 111). Past
 * the free joins of an address a minute, a join costs a proof of work (decision 198).
 */
export const attendeeRoutes: FastifyPluginAsyncZod<{
  deps: AppDeps;
  proofs: JoinProofs;
  /** Where resumable uploads keep their chunks: an erasure removes the attendee's. */
  uploads: DataStore;
}> = async (app, { deps, proofs, uploads }) => {
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

  const access = accessRules(deps.callers);
  const limited = writeRateLimit(app, deps.config.writeRateLimit);
  const route = routeOptions('Attendees');
  const today = () => deps.clock.now().toISOString().slice(0, 10);

  app.delete(
    API_PATHS.attendeeMe,
    route({
      summary: 'Erase everything of the calling attendee; their token is refused afterwards',
      description:
        'Removes their memories with every file, unfinished uploads, the questions they asked, ' +
        'their votes (the counts go down) and poll answers; open screens drop them at once. ' +
        'When some files cannot be deleted yet, everything else is gone and a 503 asks to try ' +
        'again with the same token, which finishes it.',
      // Their token still does while their erasure goes on, to finish it (decision 214).
      access: access.erasingAttendee,
      limit: limited,
      bodyLimit: 1024,
      response: { 200: erasureResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const attendee = requireAttendee(request);
      cacheHeaders.noStore(reply);
      const removed = await eraseAttendee(deps, uploads, attendee, request.log);
      request.log.info({ attendeeId: attendee.id, removed }, 'attendee erased their data');
      return { removed };
    },
  );

  app.get(
    API_PATHS.attendeeExport,
    route({
      summary: 'Everything of the calling attendee as one JSON file',
      access: access.attendee,
      limit: limited,
      response: { 200: attendeeExportSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const attendee = requireAttendee(request);
      cacheHeaders.privateNoStore(reply);
      reply.header('content-disposition', `attachment; filename="my-data-${today()}.json"`);
      return exportAttendee(deps, attendee);
    },
  );

  const openArchive = archiveSlots(MAX_OWN_ARCHIVES_AT_ONCE);
  app.get(
    API_PATHS.attendeeExportZip,
    route({
      summary: "The files of the calling attendee's memories in one ZIP, streamed",
      access: access.attendee,
      limit: limited,
      produces: ['application/zip'],
    }),
    async (request, reply) => {
      const attendee = requireAttendee(request);
      const opened = await openArchive(
        reply,
        () => tooManyRequests('archivesBusy').retryAfter(10),
        () => attendeeArchive(deps, attendee, request.log),
      );
      cacheHeaders.privateNoStore(reply);
      return sendArchive(reply, opened, `my-memories-${today()}.zip`);
    },
  );
};
