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
import { answerNotModified, versionTag } from '../http/conditional-get.ts';
import type { HotList } from '../http/hot-lists.ts';
import { writeRateLimit } from '../http/rate-limits.ts';
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

const viewTag = (key: string, version: string) => versionTag([key, version]);

const loadJson = async (deps: Pick<AppDeps, 'db'>, filter: QuestionFilter, limit: number) =>
  JSON.stringify(questionListSchema.parse(await listQuestions(deps.db, filter, limit)));

/**
 * The question lists the Q&A room, the dashboard and /questions poll every few seconds (see
 * http/hot-lists.ts): a query with each parameter once and valid, whose version is in memory.
 * Anything else — a repeated or bad parameter, a scope not read since its last change — goes
 * on to the route below, which answers it (or its 400) and learns the version.
 */
export function questionsHotList(deps: Pick<AppDeps, 'db' | 'questionVersions'>): HotList {
  // The same few URLs are polled over and over: each is parsed once (null: not a plain form).
  const parsed = new Map<string, ReturnType<typeof questionsView> | null>();
  const parse = (url: string) => {
    const mark = url.indexOf('?');
    const raw = Object.create(null) as Record<string, string>;
    for (const [name, value] of new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1))) {
      if (name in raw) return null;
      raw[name] = value;
    }
    const query = questionsQuerySchema.safeParse(raw);
    return query.success ? questionsView(query.data) : null;
  };
  return (url) => {
    if (!url.startsWith(API_PATHS.questionsRealtime)) return undefined;
    const rest = url.charAt(API_PATHS.questionsRealtime.length);
    if (rest !== '' && rest !== '?') return undefined;
    let view = parsed.get(url);
    if (view === undefined) {
      view = parse(url);
      if (parsed.size >= MAX_PARSED_URLS) parsed.clear();
      parsed.set(url, view);
    }
    if (!view) return undefined;
    const { filter, limit, key } = view;
    const version = deps.questionVersions.peek(filter);
    if (version === undefined) return undefined;
    return { key, tag: viewTag(key, version), load: () => loadJson(deps, filter, limit) };
  };
}

const MAX_PARSED_URLS = 4096;

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

  app.get(
    API_PATHS.questionsRealtime,
    {
      schema: {
        tags: ['Questions'],
        summary: 'The questions, by speaker or asker',
        querystring: questionsQuerySchema,
        response: { 200: questionListSchema, '4xx': errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { filter, limit, key } = questionsView(request.query);
      const version = await deps.questionVersions.version(filter);
      if (answerNotModified(request, reply, viewTag(key, version))) return reply;
      return listQuestions(deps.db, filter, limit);
    },
  );
};
