import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import { longestUploadMs } from '../config.ts';
import { DataDirProcesses } from '../lib/data-dir-processes.ts';
import { DiskMediaStore } from '../media/disk-media-store.ts';
import { startOrphanSweeper } from '../memories/orphan-media.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploads are staged before they are stored (`<DATA_DIR>/uploads`). */
    stagingDir: string;
  }
}

/**
 * What an upload stored or staged before its process died, ahead of its row (decision 081),
 * swept at start (awaited) and periodically, and only what is provably orphaned (decision 126):
 * another process on this data directory (a rolling deploy) may have uploads in flight.
 */
export const dataDirPlugin = fp(
  async (app) => {
    const { config, clock, database, media } = app;
    const processes = await DataDirProcesses.register(config.dataDir);
    app.addHook('onClose', () => processes.close());
    const stagingDir = path.join(config.dataDir, 'uploads');
    await fs.promises.mkdir(stagingDir, { recursive: true });
    app.decorate('stagingDir', stagingDir);
    const orphans = startOrphanSweeper(
      { db: database.db, media },
      {
        longestUploadMs: longestUploadMs(config),
        intervalMs: config.orphanSweepIntervalMs,
        processes,
        storeIsLocal: media instanceof DiskMediaStore,
        temporaryDirs: [
          stagingDir,
          ...(media instanceof DiskMediaStore ? [media.temporaryDir] : []),
        ],
        now: () => clock.now().getTime(),
        log: app.log,
      },
    );
    app.addHook('onClose', () => orphans.stop());
    await orphans.sweep();
  },
  { name: 'data-dir', dependencies: ['config', 'database', 'media-store'] },
);
