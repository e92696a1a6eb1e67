import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import {
  programmeIdParamsSchema,
  roomCreateSchema,
  roomSchema,
  roomUpdateSchema,
  scheduleSchema,
  sessionCreateSchema,
  sessionSchema,
  sessionUpdateSchema,
  sessionWithSpeakersSchema,
} from '../../shared/schemas/programme.ts';
import { API_PATHS } from '../../shared/routes.ts';
import { accessRules, answeredPrivately, routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';
import { answerNotModified, bodyTag } from '../http/transport/conditional-get.ts';
import { writeRateLimit } from '../http/transport/rate-limits.ts';
import { listRoute } from '../lists/list-route.ts';
import {
  changeRoom,
  changeSession,
  createRoom,
  createSession,
  getSession,
  removeRoom,
  removeSession,
  scheduleView,
} from './programme.service.ts';

/** A room's body is a name and a number. */
const ROOM_BODY_LIMIT = 2 * 1024;
/** A session's body: an abstract of up to 20,000 characters, escaped, and the rest. */
const SESSION_BODY_LIMIT = 128 * 1024;

/**
 * The programme (decision 210): the schedule everyone polls (one answer per version, ETag and
 * 304), a session with its speakers, and the admin's rooms and sessions.
 */
export const programmeRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const route = routeOptions('Programme');
  const adminOnly = answeredPrivately(accessRules(deps.callers).admin, cacheHeaders.noStore);
  // Each admin write is limited on its own, as the console's others are.
  const limit = () => writeRateLimit(app, deps.config.writeRateLimit);
  const params = programmeIdParamsSchema;

  await app.register(
    listRoute(deps.lists, {
      url: API_PATHS.schedule,
      tags: ['Programme'],
      summary: 'The programme: the time zone, the rooms and the sessions',
      response: scheduleSchema,
      view: () => scheduleView(deps),
    }),
  );

  app.get(
    '/api/sessions/:id',
    route({
      summary: 'A session with its speakers',
      params,
      response: { 200: sessionWithSpeakersSchema, 304: z.null(), '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const session = await getSession(deps, request.params.id);
      // Revalidated each time (a 304 while it is the same): speakers change it too.
      if (answerNotModified(request, reply, bodyTag(JSON.stringify(session)))) return reply;
      return session;
    },
  );

  app.post(
    API_PATHS.adminRooms,
    route({
      summary: 'Add a room (the admin)',
      access: adminOnly,
      limit: limit(),
      bodyLimit: ROOM_BODY_LIMIT,
      body: roomCreateSchema,
      response: { 201: roomSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => reply.code(201).send(await createRoom(deps, request.body)),
  );

  app.patch(
    '/api/admin/rooms/:id',
    route({
      summary: 'Rename or move a room (the admin)',
      access: adminOnly,
      limit: limit(),
      bodyLimit: ROOM_BODY_LIMIT,
      params,
      body: roomUpdateSchema,
      response: { 200: roomSchema, '4xx': errorResponseSchema },
    }),
    async (request) => changeRoom(deps, request.params.id, request.body),
  );

  app.delete(
    '/api/admin/rooms/:id',
    route({
      summary: 'Delete a room without sessions (the admin); 409 while it has some',
      access: adminOnly,
      limit: limit(),
      bodyLimit: ROOM_BODY_LIMIT,
      params,
      response: { 200: roomSchema, '4xx': errorResponseSchema },
    }),
    async (request) => removeRoom(deps, request.params.id),
  );

  app.post(
    API_PATHS.adminSessions,
    route({
      summary: 'Add a session (the admin)',
      access: adminOnly,
      limit: limit(),
      bodyLimit: SESSION_BODY_LIMIT,
      body: sessionCreateSchema,
      response: { 201: sessionSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => reply.code(201).send(await createSession(deps, request.body)),
  );

  app.patch(
    '/api/admin/sessions/:id',
    route({
      summary: 'Change a session (the admin)',
      access: adminOnly,
      limit: limit(),
      bodyLimit: SESSION_BODY_LIMIT,
      params,
      body: sessionUpdateSchema,
      response: { 200: sessionSchema, '4xx': errorResponseSchema },
    }),
    async (request) => changeSession(deps, request.params.id, request.body),
  );

  app.delete(
    '/api/admin/sessions/:id',
    route({
      summary: 'Delete a session (the admin); its questions stay, in no session',
      access: adminOnly,
      limit: limit(),
      bodyLimit: ROOM_BODY_LIMIT,
      params,
      response: { 200: sessionSchema, '4xx': errorResponseSchema },
    }),
    async (request) => removeSession(deps, request.params.id),
  );
};
