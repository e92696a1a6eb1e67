import fp from 'fastify-plugin';
import type { AppDeps } from '../deps.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/** What every domain's routes and services receive, gathered from the parts' plugins. */
export const appDepsPlugin = fp(
  async (app) => {
    const deps: AppDeps = {
      config: app.config,
      database: app.database,
      db: app.database.db,
      media: app.media,
      images: app.images,
      videos: app.videos,
      renditions: app.renditions,
      events: app.events,
      realtime: app.realtime,
      clock: app.clock,
      lists: app.lists,
      settings: app.settings,
      callers: app.callers,
      push: app.push,
    };
    app.decorate('deps', deps);
  },
  {
    name: 'app-deps',
    dependencies: [
      'config',
      'database',
      'media-store',
      'media-pipelines',
      'video-renditions',
      'events',
      'realtime',
      'lists',
      'settings',
      'callers',
      'push',
    ],
  },
);
