import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { startPeriodicSweep } from '../lib/periodic-sweep.ts';
import { refreshSchedule } from '../programme/schedule-import/schedule-import.service.ts';

/**
 * A schedule imported from an address is fetched again every SCHEDULE_REFRESH_MINUTES while
 * the event runs, by one instance at a time (decision 213). A failed fetch is logged and tried
 * again at the next turn; the programme stays as it was.
 */
export const scheduleRefreshPlugin = fp(
  async (app) => {
    const minutes = app.config.schedule.refreshMinutes;
    if (minutes === 0) return;
    const intervalMs = minutes * 60_000;
    const owner = randomUUID();
    const refresh = startPeriodicSweep(
      async () => {
        const result = await refreshSchedule(app.deps, { owner, leaseMs: intervalMs });
        if (!result) return 0;
        const { sessions } = result;
        const changed = sessions.added + sessions.updated + sessions.cancelled + sessions.deleted;
        if (changed > 0) app.log.info({ sessions }, 'the schedule was fetched again and changed');
        return changed;
      },
      { intervalMs, log: app.log, failure: 'the schedule could not be fetched again' },
    );
    app.addHook('onClose', async () => {
      refresh.stop();
    });
  },
  { name: 'schedule-refresh', dependencies: ['app-deps'] },
);
