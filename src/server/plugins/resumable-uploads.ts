import type { DataStore } from '@tus/server';
import fp from 'fastify-plugin';
import { openResumableStore, startAbandonedUploadSweeper } from '../uploads/upload.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where resumable uploads keep their chunks until they finish (decision 166). */
    resumableUploads: DataStore;
  }
}

/** Resumable uploads' own store, and a sweep of the abandoned ones (awaited at start). */
export const resumableUploadsPlugin = fp(
  async (app) => {
    const { config, clock, database } = app;
    const resumable = await openResumableStore(config);
    app.decorate('resumableUploads', resumable);
    const abandoned = startAbandonedUploadSweeper({ db: database.db }, resumable, {
      intervalMs: config.orphanSweepIntervalMs,
      now: () => clock.now().getTime(),
      log: app.log,
    });
    app.addHook('onClose', () => abandoned.stop());
    await abandoned.sweep();
  },
  { name: 'resumable-uploads', dependencies: ['config', 'database'] },
);
