import fp from 'fastify-plugin';
import { type ImagePipeline, createImagePipeline } from '../media/image-pipeline.ts';
import { type VideoPipeline, createVideoPipeline } from '../media/video-pipeline.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Renders uploaded pictures (memories, speakers): decoded whole, upright, no metadata. */
    images: ImagePipeline;
    /** Reads uploaded videos and takes their posters; makes playable renditions (ffmpeg). */
    videos: VideoPipeline;
  }
}

/** The image and video pipelines, their decoders' words logged as JSON, never on stdout. */
export const mediaPipelinesPlugin = fp(
  async (app) => {
    const images = createImagePipeline({
      maxWaitMs: app.config.maxImageQueueWaitMs,
      // What the HEIF decoder prints, as one JSON log line (never plain text on stdout).
      log: (said) => app.log.warn({ decoder: 'libheif', said }, 'HEIF decoder output'),
    });
    app.decorate('images', images);
    // ffmpeg's words go to the app's log at debug, never to stdout.
    app.decorate(
      'videos',
      createVideoPipeline({
        images,
        log: ({ stderr, what }) =>
          app.log.debug({ ffmpeg: stderr.slice(-4000), what }, 'ffmpeg failed'),
      }),
    );
  },
  { name: 'media-pipelines', dependencies: ['config'] },
);
