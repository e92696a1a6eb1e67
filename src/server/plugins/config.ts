import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The app's clock: the system's, or a test's to drive time. */
    clock: Clock;
  }
}

/** The config and the clock every other plugin reads. */
export const configPlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    app.decorate('config', config);
    app.decorate('clock', clock);
  },
  { name: 'config' },
);
