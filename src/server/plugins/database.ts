import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../db/connect.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
  }
}

/** Connections the database ends (a restart, a failover) are logged, never fatal. */
export const logConnectionLoss = (app: FastifyInstance) => (error: unknown) =>
  app.log.warn({ err: error }, 'database connection lost');

/** The database, migrated to the latest schema before anything reads it; closed last. */
export const databasePlugin = fp(
  async (app) => {
    const database = openDatabase(app.config, logConnectionLoss(app));
    app.decorate('database', database);
    app.addHook('onClose', async () => {
      await database.close();
    });
    await migrateToLatest(database);
  },
  { name: 'database', dependencies: ['config'] },
);
