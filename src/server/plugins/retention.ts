import fp from 'fastify-plugin';
import { startRetentionSweeper } from '../admin/retention.service.ts';
import type { PeriodicSweep } from '../lib/periodic-sweep.ts';
import { programmeEndsAt } from '../programme/programme.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The retention sweep (decision 217): attendees' data goes once its time is up. */
    retention: PeriodicSweep;
  }
}

/**
 * Removes attendees' data once the retention the organiser set has ended, checked as often as
 * orphaned files are swept (`ORPHAN_SWEEP_INTERVAL`) and on demand. Keeps the settings told
 * of when the programme ends, which the retention counts from.
 */
export const retentionPlugin = fp(
  async (app) => {
    const sweeper = startRetentionSweeper(app.deps, app.resumableUploads, {
      intervalMs: app.config.orphanSweepIntervalMs,
      log: app.log,
    });
    app.decorate('retention', sweeper);
    app.addHook('onClose', () => sweeper.stop());
    // The days count from the programme's last session: read at start and at every change of
    // the programme, here or on another instance.
    const { db, settings } = app.deps;
    const readProgrammeEnd = () =>
      programmeEndsAt(db).then(
        (endsAt) => settings.setProgrammeEnd(endsAt),
        (error: unknown) => app.log.warn({ err: error }, 'the programme’s end could not be read'),
      );
    await readProgrammeEnd();
    app.events.subscribe('caches', {
      on: (event) => {
        if (event.type === 'scheduleChanged') void readProgrammeEnd();
      },
      missed: () => void readProgrammeEnd(),
    });
  },
  { name: 'retention', dependencies: ['app-deps', 'resumable-uploads'] },
);
