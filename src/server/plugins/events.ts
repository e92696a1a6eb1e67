import fp from 'fastify-plugin';
import { createPgPool, listenConnections } from '../db/connect.ts';
import { Events } from '../events/events.ts';
import { postgresEventBus } from '../events/postgres-bus.ts';
import { logConnectionLoss } from './database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What changed: services publish one domain event per change (decision 203). */
    events: Events;
  }
}

/**
 * The domain events. Their subscribers (the list cache, the settings, the sockets) subscribe in
 * their own plugins; caches hear each event before sockets, whatever the order of the plugins.
 * With PostgreSQL, every instance on the database hears every other one's events through
 * LISTEN/NOTIFY: one pool of one connection (NOTIFYs go out in the order they were published)
 * and one LISTEN connection of its own, not a slot of the query pool, which comes back by itself
 * when the database drops it (decision 125).
 */
export const eventsPlugin = fp(
  async (app) => {
    const { config } = app;
    const events = new Events((error, event) =>
      app.log.error({ err: error, event: event?.type }, 'an event subscriber failed'),
    );
    app.decorate('events', events);
    if (!config.databaseUrl) return;
    const onConnectionError = logConnectionLoss(app);
    const pool = createPgPool(config, 1, onConnectionError);
    const connections = listenConnections(config, onConnectionError);
    // Sending goes on until here, after every later part closed: requests finishing while the
    // app closes still tell the other instances what they changed.
    app.addHook('onClose', async () => {
      await connections.close();
      await pool.end();
    });
    const channel = `confab_events_${config.databaseSchema ?? 'public'}`;
    await events.connect((receiver) =>
      postgresEventBus(pool, connections, channel, receiver, onConnectionError),
    );
    app.addHook('preClose', () => events.close());
  },
  { name: 'events', dependencies: ['config'] },
);
