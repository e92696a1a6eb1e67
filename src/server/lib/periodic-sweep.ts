import type { FastifyBaseLogger } from 'fastify';

/** A clean-up that runs every so often, and on demand. */
export interface PeriodicSweep {
  /** Sweeps now, or joins the sweep under way; answers how much it removed (0 when it failed). */
  sweep(): Promise<number>;
  stop(): void;
}

/**
 * Runs `sweepOnce` every `intervalMs`, one sweep at a time, on a timer that does not keep the
 * process alive. A failed sweep is logged as `failure` and tried again at the next one.
 */
export function startPeriodicSweep(
  sweepOnce: () => Promise<number>,
  options: { intervalMs: number; log: Pick<FastifyBaseLogger, 'warn'>; failure: string },
): PeriodicSweep {
  let running: Promise<number> | undefined;
  const sweep = () => {
    running ??= sweepOnce()
      .catch((error: unknown) => {
        options.log.warn({ err: error }, options.failure);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void sweep(), options.intervalMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
