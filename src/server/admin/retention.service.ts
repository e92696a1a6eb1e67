import type { DataStore } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { type PeriodicSweep, startPeriodicSweep } from '../lib/periodic-sweep.ts';
import { type PurgeDeps, purgeEventData } from './purge.service.ts';

/**
 * Once the retention end has passed (decision 217: the organiser's date, or the days after the
 * programme's last session), removes attendees' data as "Purge event data" does, and again
 * whatever arrives after it. Before the end, or with no end, it does nothing. Answers how many
 * items went. A purge that failed half-way carries on at the next sweep (or on another
 * instance: each purges what is left).
 */
export async function sweepExpiredData(
  deps: PurgeDeps & Pick<AppDeps, 'settings'>,
  uploads: DataStore,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<number> {
  const end = deps.settings.retentionEnd();
  if (!end || deps.clock.now().getTime() < end.getTime()) return 0;
  const removed = await purgeEventData(deps, uploads, 'retention', log);
  const count = Object.values(removed).reduce((sum, n) => sum + n, 0);
  if (count > 0) {
    log.info(
      { removed, retentionEnd: end.toISOString() },
      'attendee data removed: retention ended',
    );
  }
  return count;
}

/** Sweeps every `intervalMs` (and on demand); a failed sweep is logged and tried again. */
export function startRetentionSweeper(
  deps: PurgeDeps & Pick<AppDeps, 'settings'>,
  uploads: DataStore,
  options: { intervalMs: number; log: Pick<FastifyBaseLogger, 'info' | 'warn'> },
): PeriodicSweep {
  return startPeriodicSweep(() => sweepExpiredData(deps, uploads, options.log), {
    intervalMs: options.intervalMs,
    log: options.log,
    failure: 'attendee data past its retention could not be removed; tried again at next sweep',
  });
}
