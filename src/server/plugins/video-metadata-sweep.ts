import fp from 'fastify-plugin';
import { stripStoredVideos } from '../memories/video-metadata-sweep.ts';

/**
 * Videos stored before uploads blanked their location and camera metadata (decision 095): each
 * is cleaned once at start, one at a time, under a new key. Like the orphan sweep, a failure is
 * logged and the app starts anyway.
 */
export const videoMetadataSweepPlugin = fp(
  async (app) => {
    try {
      const videos = await stripStoredVideos(
        { db: app.database.db, media: app.media, events: app.events },
        { stagingDir: app.stagingDir },
      );
      if (videos.cleaned.length + videos.unchanged.length > 0) {
        app.log.info(
          { cleaned: videos.cleaned.length, unchanged: videos.unchanged.length },
          'stored videos cleaned of their metadata',
        );
      }
      if (videos.skipped.length > 0) {
        app.log.warn(
          { count: videos.skipped.length, first: videos.skipped.slice(0, 10) },
          'stored videos could not be cleaned of their metadata; tried again at next start',
        );
      }
      if (videos.kept.length > 0) {
        app.log.warn(
          { count: videos.kept.length, first: videos.kept.slice(0, 10) },
          'old files of cleaned videos could not be deleted; the next start removes them',
        );
      }
    } catch (error) {
      app.log.warn({ err: error }, 'stored videos could not be cleaned of their metadata');
    }
  },
  { name: 'video-metadata-sweep', dependencies: ['database', 'media-store', 'data-dir', 'events'] },
);
