import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { QA_TEXTS } from '../../shared/qa-constants.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  type SpeakerFields,
  speakerFieldsSchema,
  speakerCreatedResponseSchema,
  speakerListSchema,
  speakerLoginRequestSchema,
  speakerIdParamsSchema,
  speakerLoginResponseSchema,
  speakerSecretResponseSchema,
} from '../../shared/schemas/speaker.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import { z } from 'zod';
import { accessRules, routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { invalid } from '../http/errors.ts';
import { readPictureForm } from '../media/picture-form.ts';
import { formRoutes } from '../http/transport/multipart.ts';
import { writeRateLimit } from '../http/transport/rate-limits.ts';
import { listRoute } from '../lists/list-route.ts';
import {
  createSpeaker,
  loginSpeaker,
  removeSpeaker,
  renewSecret,
  signInLinksCsv,
  speakersView,
} from './speaker.service.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

const LABELS = { name: 'Full name', stack: 'Stack', bio: 'Bio' };

/** Reads the sign-up form: `name`, `stack`, `bio` and one `picture` file, in any order. */
async function readSpeakerForm(
  request: FastifyRequest,
  maxUploadMb: number,
): Promise<{ fields: SpeakerFields; picture: Buffer }> {
  const { fields, picture } = await readPictureForm(request, {
    field: 'picture',
    maxMb: maxUploadMb,
    maxFields: 10,
    fieldBytes: 16 * 1024,
    labels: LABELS,
  });
  const parsed = speakerFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    throw invalid('schema', parsed.error.issues[0]?.message, 'form');
  }
  if (picture.length === 0) throw invalid('pictureRequired');
  return { fields: parsed.data, picture };
}

/** Speakers: sign-up with a picture, the two list paths of the spec, login and dashboard. */
export const speakerRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const limited = writeRateLimit(app, deps.config.writeRateLimit);
  const route = routeOptions('Speakers');
  const access = accessRules(deps.callers);

  // Both paths of the spec's table, the dropdown's and the Q&A room's: one list, one answer.
  const speakerLists = [
    { url: API_PATHS.speakers, summary: 'The speakers, for the dropdown' },
    { url: API_PATHS.speakersCard, summary: 'The speakers, for the Q&A room' },
  ];
  for (const { url, summary } of speakerLists) {
    await app.register(
      listRoute(deps.lists, {
        url,
        tags: ['Speakers'],
        summary,
        response: speakerListSchema,
        view: () => speakersView(deps),
      }),
    );
  }

  await app.register(
    formRoutes(async (forms) => {
      forms.post(
        API_PATHS.speakerAdd,
        route({
          summary: 'Sign up as a speaker, with a picture',
          limit: limited,
          response: { 201: speakerCreatedResponseSchema, '4xx': errorResponseSchema },
        }),
        async (request, reply) => {
          const form = await readSpeakerForm(request, deps.config.maxUploadMb);
          const { speaker, secret } = await createSpeaker(deps, form.fields, form.picture);
          cacheHeaders.noStore(reply);
          return reply.code(201).send({
            message: `Speaker added. Log in to your dashboard with the username ${speaker.username}.`,
            speaker,
            secret,
          });
        },
      );
    }),
  );

  app.post(
    API_PATHS.speakerLogin,
    route({
      summary: 'Log in to the speaker dashboard',
      limit: limited,
      body: speakerLoginRequestSchema,
      response: { 200: speakerLoginResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      cacheHeaders.noStore(reply);
      const { speaker, token } = await loginSpeaker(
        deps,
        request.body.username,
        request.body.secret,
      );
      return { message: QA_TEXTS.loginSuccess, speaker, ...(token ? { token } : {}) };
    },
  );

  app.delete(
    '/api/speakers/:id',
    route({
      summary: 'Delete a speaker with their questions (the admin)',
      access: access.admin,
      limit: limited,
      params: speakerIdParamsSchema,
      response: { 200: messageResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      cacheHeaders.noStore(reply);
      await removeSpeaker(deps, request.params.id);
      return { message: 'Speaker deleted' };
    },
  );
  app.post(
    '/api/speakers/:id/secret',
    route({
      summary: 'Issue a speaker a new sign-in secret; the old one stops working (the admin)',
      access: access.admin,
      limit: limited,
      bodyLimit: 1024,
      params: speakerIdParamsSchema,
      response: { 200: speakerSecretResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      cacheHeaders.noStore(reply);
      return { secret: await renewSecret(deps, request.params.id) };
    },
  );

  app.get(
    API_PATHS.adminSpeakerLinksCsv,
    route({
      summary:
        'Every speaker’s sign-in link as CSV, to send out; each link carries a new secret and the old ones stop working (the admin)',
      access: access.admin,
      // Each download replaces every secret: limited like a write.
      limit: limited,
      response: { 200: z.string(), '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      // The address people open, as configured; else the one the admin's browser used.
      const origin = deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
      const csv = await signInLinksCsv(deps, origin);
      cacheHeaders.noStore(
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="speaker-links.csv"'),
      );
      return csv;
    },
  );
};
