import fp from 'fastify-plugin';
import { moderationRoomOf } from '../auth/policies.ts';
import { livePoll } from '../polls/poll.service.ts';
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
    const { db } = app.database;
    const realtime = createRealtime(app.server, app.log, moderationRoomOf(app.callers), (pollId) =>
      livePoll({ db }, pollId),
    );
    app.events.subscribe('clients', realtime);
    app.decorate('realtime', realtime);
    app.addHook('preClose', async () => {
      await realtime.close();
    });
  },
  { name: 'realtime', dependencies: ['database', 'events', 'callers'] },
);
