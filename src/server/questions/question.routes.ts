import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import {
  adminQuestionsQuerySchema,
  questionCreateRequestSchema,
  questionListSchema,
  questionParamsSchema,
  questionPatchSchema,
  questionResponseSchema,
  questionSchema,
  questionsQuerySchema,
} from '../../shared/schemas/question.ts';
import {
  speakerDashboardSchema,
  speakerIdParamsSchema,
  speakerUsernameParamsSchema,
} from '../../shared/schemas/speaker.ts';
import { callerOf, requireAttendee, requireModerator } from '../auth/callers.ts';
import { authorize, can } from '../auth/policies.ts';
import {
  accessRules,
  adminPolled,
  answeredPrivately,
  routeOptions,
} from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { askRateLimit, writeRateLimit } from '../http/transport/rate-limits.ts';
import { listRoute } from '../lists/list-route.ts';
import {
  askQuestion,
  adminQuestionsView,
  changeQuestion,
  publishedQuestionsView,
  questionsCsv,
  removeQuestion,
  speakerDashboardView,
  vote,
} from './question.service.ts';
import { speakerByUsername } from '../speakers/speaker.service.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/** JSON bodies of the live room are small: a flag or two, a question of 1,000 characters. */
const SMALL_BODY = 8 * 1024;
/** A speaker's change with a written answer of 2,000 characters, in any script. */
const ANSWER_BODY = 16 * 1024;

/** Sends CSV lines as they are read, as a download. */
function sendCsv(reply: FastifyReply, lines: AsyncIterable<string>, filename: string) {
  cacheHeaders.noStore(
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`),
  );
  return reply.send(Readable.from(lines));
}

/**
 * Asking a question, voting, the speaker's and the admin's changes, and the question lists the
 * Q&A room, dashboard, /questions and the admin screen poll.
 */
export const questionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const access = accessRules(deps.callers);
  const limited = writeRateLimit(app, deps.config.writeRateLimit);
  const route = routeOptions('Questions');

  app.post(
    API_PATHS.questionCreate,
    route({
      summary: 'Ask a speaker a question',
      // The attendee token is optional here (the spec's call works without one); a token that
      // is sent must be valid. The per-attendee limit on asking comes first.
      access: access.anyoneOrAttendee,
      limit: [askRateLimit(app, () => deps.settings.current.questionsPerMinute), ...limited],
      bodyLimit: SMALL_BODY,
      body: questionCreateRequestSchema,
      response: { 201: questionSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const question = await askQuestion(deps, request.body, callerOf(request));
      return reply.code(201).send(question);
    },
  );

  for (const method of ['PUT', 'DELETE'] as const) {
    app.route({
      method,
      url: '/api/questions/:id/vote',
      ...route({
        summary: method === 'PUT' ? 'Upvote a question (once per attendee)' : 'Take an upvote back',
        access: access.attendee,
        limit: limited,
        bodyLimit: 1024,
        params: questionParamsSchema,
        response: { 200: questionResponseSchema, '4xx': errorResponseSchema },
      }),
      handler: async (request) => {
        const attendee = requireAttendee(request);
        const question = await vote(deps, request.params.id, attendee, method === 'PUT');
        return { question };
      },
    });
  }

  app.patch(
    '/api/questions/:id',
    route({
      summary:
        'Mark answered, pin, hide, publish or write the answer to a question (its speaker, or the admin)',
      access: access.moderator,
      limit: limited,
      // A written answer is up to 2,000 characters (decision 234).
      bodyLimit: ANSWER_BODY,
      params: questionParamsSchema,
      body: questionPatchSchema,
      response: { 200: questionResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request) => {
      const by = requireModerator(request);
      const question = await changeQuestion(deps, request.params.id, request.body, by);
      return { question };
    },
  );

  app.delete(
    '/api/questions/:id',
    route({
      summary: 'Delete a question (the admin)',
      access: access.admin,
      limit: limited,
      params: questionParamsSchema,
      response: { 200: messageResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request) => {
      if (!(await removeQuestion(deps, request.params.id))) {
        throw notFound('question');
      }
      return { message: 'Question deleted' };
    },
  );

  // The lists the Q&A room, the dashboard and /questions poll every few seconds (decision 101).
  // Anyone's, but an asker's own list (`own=true`, their anonymous questions too): with that
  // attendee's token alone, and kept by no shared cache (decision 233).
  const ownList = answeredPrivately(access.attendee, cacheHeaders.privateRevalidate);
  await app.register(
    listRoute(deps.lists, {
      url: API_PATHS.questionsRealtime,
      tags: ['Questions'],
      summary: 'The published questions, by speaker or asker, recent or top',
      access: {
        check: async (request, reply) => {
          const { own, askerUsername } = request.query as Record<string, unknown>;
          if (own === undefined) return;
          await ownList.check(request, reply);
          const asker = typeof askerUsername === 'string' ? askerUsername : '';
          authorize(callerOf(request), 'list own questions', asker);
        },
      },
      querystring: questionsQuerySchema,
      response: questionListSchema,
      view: ({ query }) => publishedQuestionsView(deps, query),
    }),
  );

  // A speaker's dashboard (the spec's call): the questions asked of them and of their sessions
  // (decision 223). Named by username, so the speaker is read first: no answer before the
  // handler, but the same ETag and 304 as every list.
  await app.register(
    listRoute(deps.lists, {
      url: '/api/speakers/:username/dashboard',
      tags: ['Speakers'],
      summary: 'A speaker’s dashboard: the speaker and the questions asked',
      params: speakerUsernameParamsSchema,
      response: speakerDashboardSchema,
      // With the speaker's own token (or the admin's), the pending and hidden questions are
      // there too: the speaker publishes the one and unhides the other. Never without it.
      access: access.anyoneOrModerator,
      resolveView: async ({ params, request }) => {
        const speaker = await speakerByUsername(deps, params.username);
        const moderated = can(callerOf(request), 'see moderated questions', {
          speakerId: speaker._id,
        });
        return speakerDashboardView(deps, speaker, moderated);
      },
    }),
  );

  // Polled by the admin screen's Questions tab: every status, newest first; its CSV beside it.
  const adminPoll = adminPolled(access.admin);
  await app.register(
    listRoute(deps.lists, {
      url: API_PATHS.adminQuestions,
      tags: ['Admin'],
      summary: 'Every question, for moderation',
      access: adminPoll,
      querystring: adminQuestionsQuerySchema,
      response: questionListSchema,
      view: ({ query }) => adminQuestionsView(deps, query),
    }),
  );
  app.get(
    API_PATHS.adminQuestionsCsv,
    routeOptions('Admin')({
      summary: 'Every question as CSV',
      access: adminPoll,
      response: { 200: z.string(), '4xx': errorResponseSchema },
    }),
    async (_request, reply) =>
      sendCsv(reply, questionsCsv(deps, { asAdmin: true }), 'questions.csv'),
  );

  app.get(
    '/api/speakers/:id/questions.csv',
    routeOptions('Speakers')({
      summary: "One speaker's questions as CSV (that speaker, or the admin)",
      access: access.moderator,
      params: speakerIdParamsSchema,
      response: { 200: z.string(), '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const speakerId = request.params.id.toLowerCase();
      const caller = callerOf(request);
      authorize(caller, 'export questions', { speakerId });
      const csv = questionsCsv(deps, { speakerId, asAdmin: caller.kind === 'admin' });
      return sendCsv(reply, csv, 'questions.csv');
    },
  );
};
