import fp from 'fastify-plugin';
import { createPgPool, listenConnections } from '../db/connect.ts';
import type { FanOut } from '../realtime/realtime.ts';
import { logConnectionLoss } from './database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** How events reach the other instances: PostgreSQL's LISTEN/NOTIFY; none with SQLite. */
    fanOut: FanOut | undefined;
  }
}

/**
 * With PostgreSQL, socket events fan out to every instance through LISTEN/NOTIFY on a small
 * pool of its own (a LISTEN connection must not take a slot of the query pool).
 * The two LISTEN connections (socket.io's adapter, the change feed) are their own and come
 * back by themselves when the database drops them.
 */
export const fanOutPlugin = fp(
  async (app) => {
    const { config } = app;
    if (!config.databaseUrl) {
      app.decorate('fanOut', undefined);
      return;
    }
    const onConnectionError = logConnectionLoss(app);
    // One connection: NOTIFYs go out in the order they were sent, and socket.io delivers a
    // broadcast to this instance's own clients only once its NOTIFY is out, so events keep their
    // order here too.
    const pool = createPgPool(config, 1, onConnectionError);
    const connections = listenConnections(config, onConnectionError);
    app.decorate('fanOut', {
      pool,
      connections,
      channelPrefix: `confab_${config.databaseSchema ?? 'public'}`,
    });
    app.addHook('onClose', async () => {
      await connections.close();
      await pool.end();
    });
  },
  { name: 'fan-out', dependencies: ['config'] },
);
