import fp from 'fastify-plugin';
import type { VideoRenditions } from '../deps.ts';
import { startVideoRenditions } from '../memories/video-renditions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Makes every stored video's playable rendition in the background, once across instances. */
    renditions: VideoRenditions;
  }
}

/** Every video still processing (here or on an instance that stopped) is rendered, once. */
export const videoRenditionsPlugin = fp(
  async (app) => {
    const { database, media, events, clock, videos } = app;
    const renditions = startVideoRenditions(
      { db: database.db, media, events, clock, videos },
      { stagingDir: app.stagingDir, log: app.log },
    );
    app.decorate('renditions', renditions);
    app.addHook('preClose', () => renditions.stop());
    // In the background: start-up does not wait for it.
    renditions.scan().catch((error: unknown) => {
      app.log.warn({ err: error }, 'videos still processing could not be looked up');
    });
  },
  {
    name: 'video-renditions',
    dependencies: ['config', 'database', 'media-store', 'data-dir', 'events', 'media-pipelines'],
  },
);
