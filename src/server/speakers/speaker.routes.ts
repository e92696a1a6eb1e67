import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { QA_TEXTS } from '../../shared/qa-constants.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  speakerCreatedResponseSchema,
  speakerDashboardSchema,
  speakerListSchema,
  speakerLoginRequestSchema,
  speakerLoginResponseSchema,
  speakerUsernameParamsSchema,
} from '../../shared/schemas/speaker.ts';
import type { AppDeps } from '../deps.ts';
import { answerNotModified, versionTag } from '../http/conditional-get.ts';
import { type HotList, fixedUrlList } from '../http/hot-lists.ts';
import { writeRateLimit } from '../http/rate-limits.ts';
import { listSpeakers } from './speaker.repository.ts';
import {
  createSpeaker,
  loginSpeaker,
  speakerDashboard,
  speakerDashboardVersion,
} from './speaker.service.ts';
import { readSpeakerForm } from './speaker-form.ts';

/** The speakers list, which every open dropdown polls every 3 s (see http/hot-lists.ts). */
export const speakersHotList = (deps: Pick<AppDeps, 'db' | 'speakerListVersion'>): HotList =>
  fixedUrlList('speakers', [API_PATHS.speakers, API_PATHS.speakersCard], {
    tag: () => deps.speakerListVersion.etag(),
    load: async () => JSON.stringify(speakerListSchema.parse(await listSpeakers(deps.db))),
  });

/** Speakers: sign-up with a picture, the two list paths of the spec, login and dashboard. */
export const speakerRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  // Multipart only in this plugin's scope, unless the app already parses it everywhere.
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(multipart);
  }
  const limited = writeRateLimit(app, deps.config.writeRateLimit);

  // Both paths of the spec's table: the dropdown's and the Q&A room's.
  const listSchema = (summary: string) => ({
    tags: ['Speakers'],
    summary,
    response: { 200: speakerListSchema },
  });
  const list = async (request: FastifyRequest, reply: FastifyReply) => {
    if (answerNotModified(request, reply, deps.speakerListVersion.etag())) return reply;
    return listSpeakers(deps.db);
  };
  app.get(API_PATHS.speakers, { schema: listSchema('The speakers, for the dropdown') }, list);
  app.get(API_PATHS.speakersCard, { schema: listSchema('The speakers, for the Q&A room') }, list);

  app.post(
    API_PATHS.speakerAdd,
    {
      preHandler: limited,
      schema: {
        tags: ['Speakers'],
        summary: 'Sign up as a speaker, with a picture',
        response: { 201: speakerCreatedResponseSchema, '4xx': errorResponseSchema },
      },
    },
    async (request, reply) => {
      const form = await readSpeakerForm(request, deps.config.maxUploadMb);
      const speaker = await createSpeaker(deps, form.fields, form.picture);
      return reply.code(201).send({
        message: `Speaker added. Log in to your dashboard with the username ${speaker.username}.`,
        speaker,
      });
    },
  );

  app.post(
    API_PATHS.speakerLogin,
    {
      preHandler: limited,
      schema: {
        tags: ['Speakers'],
        summary: 'Log in to the speaker dashboard',
        body: speakerLoginRequestSchema,
        response: { 200: speakerLoginResponseSchema, '4xx': errorResponseSchema },
      },
    },
    async (request) => {
      const speaker = await loginSpeaker(deps, request.body.username);
      return { message: QA_TEXTS.loginSuccess, speaker };
    },
  );

  app.get(
    '/api/speakers/:username/dashboard',
    {
      schema: {
        tags: ['Speakers'],
        summary: 'A speaker’s dashboard: the speaker and the questions asked',
        params: speakerUsernameParamsSchema,
        response: { 200: speakerDashboardSchema, '4xx': errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { speaker, version } = await speakerDashboardVersion(deps, request.params.username);
      const tag = versionTag(['dashboard', speaker._id, version]);
      if (answerNotModified(request, reply, tag)) return reply;
      return speakerDashboard(deps, speaker);
    },
  );
};
