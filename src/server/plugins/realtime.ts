import fp from 'fastify-plugin';
import { moderationRoomOf } from '../auth/policies.ts';
import { type Realtime, createRealtime } from '../realtime/realtime.ts';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/**
 * socket.io on the app's HTTP server, a subscriber of the events; closed before the server waits
 * for its connections.
 */
export const realtimePlugin = fp(
  async (app) => {
    const realtime = createRealtime(app.server, app.log, moderationRoomOf(app.callers));
    app.events.subscribe('clients', realtime);
    app.decorate('realtime', realtime);
    app.addHook('preClose', async () => {
      await realtime.close();
    });
  },
  { name: 'realtime', dependencies: ['events', 'callers'] },
);
