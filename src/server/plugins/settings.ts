import fp from 'fastify-plugin';
import { SettingsStore } from '../settings/settings.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The admin's settings, in memory. */
    settings: SettingsStore;
  }
}

/** The admin's settings, read once and refreshed by the other instances' events. */
export const settingsPlugin = fp(
  async (app) => {
    app.decorate('settings', await SettingsStore.open(app.database.db, app.events, app.config));
  },
  { name: 'settings', dependencies: ['config', 'database', 'events'] },
);
