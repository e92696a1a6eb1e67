import fp from 'fastify-plugin';
import { type ChangeFeed, localChangeFeed, postgresChangeFeed } from '../realtime/change-feed.ts';
import { logConnectionLoss } from './database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tells every instance which data changed, so their caches refresh (decision 101). */
    changes: ChangeFeed;
  }
}

/** The change feed: LISTEN/NOTIFY across instances with PostgreSQL, nothing to tell alone. */
export const changeFeedPlugin = fp(
  async (app) => {
    const { config, fanOut } = app;
    const changes = fanOut
      ? await postgresChangeFeed(
          fanOut.pool,
          fanOut.connections,
          `confab_changes_${config.databaseSchema ?? 'public'}`,
          logConnectionLoss(app),
        )
      : localChangeFeed();
    app.decorate('changes', changes);
    app.addHook('preClose', () => changes.close());
  },
  { name: 'change-feed', dependencies: ['config', 'fan-out'] },
);
