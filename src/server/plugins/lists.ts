import fp from 'fastify-plugin';
import { ListCache } from '../lists/list-cache.ts';
import { forgetChangedLists } from '../lists/list-events.ts';
import { sessionOfPollsScope } from '../lists/poll-scopes.ts';
import { questionsFilterOf } from '../lists/question-scopes.ts';
import { memoriesVersion } from '../memories/memory.repository.ts';
import { readScheduleVersion } from '../programme/programme.repository.ts';
import { scheduleListVersion } from '../programme/programme.service.ts';
import { reportsVersion } from '../memories/report.repository.ts';
import { pollsVersion } from '../polls/poll.repository.ts';
import { questionsVersion } from '../questions/question.repository.ts';
import { speakersVersion } from '../speakers/speaker.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every polled list's version and answers, kept fresh by the events. */
    lists: ListCache;
  }
}

/**
 * Every polled list's version and answers, refreshed by the events of every instance (decisions
 * 101 and 203).
 */
export const listsPlugin = fp(
  async (app) => {
    const { db } = app.database;
    const lists = new ListCache(
      {
        memories: () => memoriesVersion(db),
        // An import renames speakers (decision 244): the programme's version moves the list's.
        speakers: async () => {
          const [speakers, schedule] = await Promise.all([
            speakersVersion(db),
            readScheduleVersion(db),
          ]);
          return { ...speakers, revision: schedule };
        },
        questions: (scope) => questionsVersion(db, questionsFilterOf(scope)),
        schedule: () => scheduleListVersion({ db }),
        // The reported memories carry the memory as it is: its changes move the version too.
        reports: async () => {
          const [reports, memories] = await Promise.all([reportsVersion(db), memoriesVersion(db)]);
          return { ...reports, revision: reports.revision + memories.revision };
        },
        polls: (scope) => pollsVersion(db, sessionOfPollsScope(scope)),
      },
      app.answers,
    );
    app.events.subscribe('caches', forgetChangedLists(lists));
    app.decorate('lists', lists);
  },
  { name: 'lists', dependencies: ['database', 'events', 'answer-memo'] },
);
