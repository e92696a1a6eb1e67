import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  questionCreateRequestSchema,
  questionListSchema,
  type QuestionsQuery,
  questionSchema,
  questionsQuerySchema,
} from '../../shared/schemas/question.ts';
import type { AppDeps } from '../deps.ts';
import { writeRateLimit } from '../http/rate-limits.ts';
import { listRoute } from '../lists/list-route.ts';
import { questionsScope } from '../lists/question-scopes.ts';
import { type QuestionFilter, listQuestions } from './question.repository.ts';
import { askQuestion, idAfter } from './question.service.ts';

/** The questions a query asks for, and the view's name (the same query, however it is spelt). */
function questionsView(query: QuestionsQuery): {
  filter: QuestionFilter;
  limit: number;
  key: string;
} {
  const { speakerId, since, before, askerUsername, limit } = query;
  const filter = {
    speakerId: speakerId?.toLowerCase(),
    askerUsername,
    after: since === undefined ? undefined : idAfter(since),
    before: before?.toLowerCase(),
  };
  const key = JSON.stringify([
    'questions',
    filter.speakerId,
    filter.after,
    filter.before,
    filter.askerUsername,
    limit,
  ]);
  return { filter, limit, key };
}

/** Asking a question, and the question lists the Q&A room, dashboard and /questions poll. */
export const questionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    API_PATHS.questionCreate,
    {
      preHandler: writeRateLimit(app, deps.config.writeRateLimit),
      schema: {
        tags: ['Questions'],
        summary: 'Ask a speaker a question',
        body: questionCreateRequestSchema,
        response: { 201: questionSchema, '4xx': errorResponseSchema },
      },
    },
    async (request, reply) => {
      const question = await askQuestion(deps, request.body);
      return reply.code(201).send(question);
    },
  );

  // The lists the Q&A room, the dashboard and /questions poll every few seconds (decision 101).
  await app.register(
    listRoute(deps.lists, {
      url: API_PATHS.questionsRealtime,
      tags: ['Questions'],
      summary: 'The questions, by speaker or asker',
      querystring: questionsQuerySchema,
      response: questionListSchema,
      view: ({ query }) => {
        const { filter, limit, key } = questionsView(query);
        return {
          topic: 'questions',
          scope: questionsScope(filter.speakerId, filter.askerUsername),
          key,
          rows: () => listQuestions(deps.db, filter, limit),
        };
      },
    }),
  );
};
