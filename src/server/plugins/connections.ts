import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import {
  defaultMaxConnections,
  limitConnections,
  registerCloseOnShutdown,
} from '../http/transport/connection-limits.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The HTTP server's open connections, at most `MAX_CONNECTIONS`. */
    connections: ReadonlySet<Socket>;
  }
}

/** The HTTP server's connections: a ceiling on their number, and closed with the app. */
export const connectionsPlugin = fp(
  async (app) => {
    app.decorate(
      'connections',
      limitConnections(app.server, app.config.maxConnections ?? defaultMaxConnections()),
    );
    // Registered before any other part's: its preClose hook runs first, and socket.io's close
    // waits for the HTTP server to close.
    registerCloseOnShutdown(app);
  },
  { name: 'connections', dependencies: ['config'] },
);
