import fp from 'fastify-plugin';
import { ListCache } from '../lists/list-cache.ts';
import { questionsFilterOf } from '../lists/question-scopes.ts';
import { memoriesVersion } from '../memories/memory.repository.ts';
import { questionsVersion } from '../questions/question.repository.ts';
import { speakersVersion } from '../speakers/speaker.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every polled list's version and answers; write paths tell it what they changed. */
    lists: ListCache;
  }
}

/**
 * Every polled list's version and answers, refreshed by the write paths here and by the
 * change feed from other instances (decision 101).
 */
export const listsPlugin = fp(
  async (app) => {
    const { db } = app.database;
    app.decorate(
      'lists',
      new ListCache(
        app.changes,
        {
          memories: () => memoriesVersion(db),
          speakers: () => speakersVersion(db),
          questions: (scope) => questionsVersion(db, questionsFilterOf(scope)),
        },
        app.answers,
      ),
    );
  },
  { name: 'lists', dependencies: ['database', 'change-feed', 'answer-memo'] },
);
