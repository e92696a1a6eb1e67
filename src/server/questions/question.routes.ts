import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  questionCreateRequestSchema,
  questionListSchema,
  questionSchema,
  questionsQuerySchema,
} from '../../shared/schemas/question.ts';
import type { AppDeps } from '../deps.ts';
import { answerNotModified, versionTag } from '../http/conditional-get.ts';
import { writeRateLimit } from '../http/rate-limits.ts';
import { listQuestions, questionsVersion } from './question.repository.ts';
import { askQuestion, idAfter } from './question.service.ts';

/** Asking a question, and the question lists the Q&A room, dashboard and /questions poll. */
export const questionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    API_PATHS.questionCreate,
    {
      preHandler: writeRateLimit(app, deps.config.writeRateLimit),
      schema: {
        body: questionCreateRequestSchema,
        response: { 201: questionSchema, '4xx': errorResponseSchema },
      },
    },
    async (request, reply) => {
      const question = await askQuestion(deps, request.body);
      return reply.code(201).send(question);
    },
  );

  app.get(
    API_PATHS.questionsRealtime,
    {
      schema: {
        querystring: questionsQuerySchema,
        response: { 200: questionListSchema, '4xx': errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { speakerId, since, before, askerUsername, limit } = request.query;
      const filter = {
        speakerId: speakerId?.toLowerCase(),
        askerUsername,
        after: since === undefined ? undefined : idAfter(since),
        before: before?.toLowerCase(),
      };
      const version = await questionsVersion(deps.db, filter);
      const tag = versionTag([
        'questions',
        filter.speakerId,
        filter.after,
        filter.before,
        filter.askerUsername,
        limit,
        version.newestId,
        version.count,
      ]);
      if (answerNotModified(request, reply, tag)) return reply;
      return listQuestions(deps.db, filter, limit);
    },
  );
};
