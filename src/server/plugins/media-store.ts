import path from 'node:path';
import fp from 'fastify-plugin';
import { DiskMediaStore } from '../media/disk-media-store.ts';
import type { MediaStore } from '../media/media-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaStore;
  }
}

/** The media store chosen by the config: the data directory's disk, or S3. */
export const mediaStorePlugin = fp(
  async (app) => {
    const { config } = app;
    if (config.mediaStore === 's3') {
      // Loaded only when used: the AWS SDK costs tens of MB of memory.
      const { S3MediaStore } = await import('../media/s3-media-store.ts');
      const store = new S3MediaStore(config.s3);
      app.decorate('media', store);
      app.addHook('onClose', () => {
        store.close();
      });
      return;
    }
    app.decorate('media', new DiskMediaStore(path.join(config.dataDir, 'media')));
  },
  { name: 'media-store', dependencies: ['config'] },
);
