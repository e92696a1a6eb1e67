import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import {
  leaderboardSchema,
  pollAnswerParamsSchema,
  pollAnswerPatchSchema,
  pollCreateRequestSchema,
  pollListSchema,
  pollParamsSchema,
  pollPatchSchema,
  pollResponseSchema,
  pollSchema,
  pollVoteRequestSchema,
  pollWordParamsSchema,
  pollsQuerySchema,
} from '../../shared/schemas/poll.ts';
import { callerOf, requireAttendee, requireModerator } from '../auth/callers.ts';
import {
  accessRules,
  adminPolled,
  answeredPrivately,
  routeOptions,
} from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';
import { writeRateLimit } from '../http/transport/rate-limits.ts';
import { listRoute } from '../lists/list-route.ts';
import {
  answerPoll,
  changePoll,
  createPoll,
  moderateAnswer,
  pollsCsv,
  pollsView,
  quizLeaderboard,
  removePoll,
  removeWord,
  startPollOver,
} from './poll.service.ts';

/** Sends CSV lines as they are made, as a download. */
function sendCsv(reply: FastifyReply, lines: AsyncIterable<string>, filename: string) {
  cacheHeaders.noStore(
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`),
  );
  return reply.send(Readable.from(lines));
}

/** A poll with 20 options of 200 characters fits in 8 KB; an answer in 2 KB. */
const POLL_BODY = 8 * 1024;
const ANSWER_BODY = 2 * 1024;

/**
 * Live polls (decision 220): the lists screens poll, the owners' changes (the session's speakers
 * and the admin), the attendees' answers, a quiz's leaderboard and the admin's CSV.
 */
export const pollRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const access = accessRules(deps.callers);
  const limited = writeRateLimit(app, deps.config.writeRateLimit);
  const route = routeOptions('Polls');

  // Every answer varies on the token: drafts and hidden results are their owners'.
  await app.register(
    listRoute(deps.lists, {
      url: API_PATHS.polls,
      tags: ['Polls'],
      summary: 'One session’s polls, or the event-wide ones (drafts and results to their owners)',
      access: answeredPrivately(access.anyoneOrModerator, cacheHeaders.revalidate),
      querystring: pollsQuerySchema,
      response: pollListSchema,
      resolveView: ({ query, request }) => pollsView(deps, query, callerOf(request)),
    }),
  );

  app.post(
    API_PATHS.polls,
    route({
      summary: 'Prepare a poll, a draft (a speaker of its session, or the admin)',
      access: access.moderator,
      limit: limited,
      bodyLimit: POLL_BODY,
      body: pollCreateRequestSchema,
      response: { 201: pollSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const poll = await createPoll(deps, request.body, requireModerator(request));
      return cacheHeaders.noStore(reply.code(201)).send(poll);
    },
  );

  app.patch(
    '/api/polls/:id',
    route({
      summary: 'Open, close, re-open, reveal or hide results; edit a draft (its owner)',
      access: access.moderator,
      limit: limited,
      bodyLimit: POLL_BODY,
      params: pollParamsSchema,
      body: pollPatchSchema,
      response: { 200: pollSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const poll = await changePoll(
        deps,
        request.params.id,
        request.body,
        requireModerator(request),
      );
      return cacheHeaders.noStore(reply).send(poll);
    },
  );

  app.delete(
    '/api/polls/:id',
    route({
      summary: 'Delete a poll with its answers (its owner)',
      access: access.moderator,
      limit: limited,
      params: pollParamsSchema,
      response: { 200: messageResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      await removePoll(deps, request.params.id, requireModerator(request));
      return cacheHeaders.noStore(reply).send({ message: 'Poll deleted' });
    },
  );

  app.post(
    '/api/polls/:id/reset',
    route({
      summary: 'Start a poll over: every answer removed (its owner)',
      access: access.moderator,
      limit: limited,
      bodyLimit: 1024,
      params: pollParamsSchema,
      response: { 200: pollSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const poll = await startPollOver(deps, request.params.id, requireModerator(request));
      return cacheHeaders.noStore(reply).send(poll);
    },
  );

  app.put(
    '/api/polls/:id/vote',
    route({
      summary: 'Answer an open poll (one response per attendee; a second one replaces the first)',
      access: access.attendee,
      limit: limited,
      bodyLimit: ANSWER_BODY,
      params: pollParamsSchema,
      body: pollVoteRequestSchema,
      response: { 200: pollResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const attendee = requireAttendee(request);
      const poll = await answerPoll(deps, request.params.id, request.body, attendee);
      return cacheHeaders.noStore(reply).send({ poll });
    },
  );

  app.patch(
    '/api/polls/:id/answers/:answerId',
    route({
      summary: 'Hide an open answer from the results, or show it again (the poll’s owner)',
      access: access.moderator,
      limit: limited,
      bodyLimit: 1024,
      params: pollAnswerParamsSchema,
      body: pollAnswerPatchSchema,
      response: { 200: pollSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const { id, answerId } = request.params;
      const by = requireModerator(request);
      const poll = await moderateAnswer(deps, id, answerId, request.body.hidden, by);
      return cacheHeaders.noStore(reply).send(poll);
    },
  );

  app.delete(
    '/api/polls/:id/words/:text',
    route({
      summary: 'Remove a word from a word cloud, now and from later answers (the poll’s owner)',
      access: access.moderator,
      limit: limited,
      params: pollWordParamsSchema,
      response: { 200: pollSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const { id, text } = request.params;
      const poll = await removeWord(deps, id, text, requireModerator(request));
      return cacheHeaders.noStore(reply).send(poll);
    },
  );

  app.get(
    '/api/polls/:id/leaderboard',
    route({
      summary: 'A quiz’s leaderboard: right answers score more the sooner they came',
      access: answeredPrivately(access.anyoneOrModerator, cacheHeaders.noStore),
      params: pollParamsSchema,
      response: { 200: leaderboardSchema, '4xx': errorResponseSchema },
    }),
    (request) => quizLeaderboard(deps, request.params.id, callerOf(request)),
  );

  app.get(
    API_PATHS.adminPollsCsv,
    routeOptions('Admin')({
      summary: 'Every poll with its results as CSV',
      access: adminPolled(access.admin),
      response: { 200: z.string(), '4xx': errorResponseSchema },
    }),
    async (_request, reply) => sendCsv(reply, pollsCsv(deps), 'polls.csv'),
  );
};
