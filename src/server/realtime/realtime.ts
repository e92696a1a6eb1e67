import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { Server } from 'socket.io';
import {
  type ClientToServerEvents,
  type ServerToClientEvents,
  roomFor,
  watchRequestSchema,
} from '../../shared/events.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { Question } from '../../shared/schemas/question.ts';
import type { Speaker } from '../../shared/schemas/speaker.ts';
import { BASELINE_SECURITY_HEADERS } from '../http/security-headers.ts';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents>;

/** Typed emit helpers: the only way the services talk to connected clients. */
export interface Realtime {
  io: RealtimeServer;
  newQuestion(question: Question): void;
  memoryCreated(memory: Memory): void;
  memoryDeleted(id: string): void;
  speakerCreated(speaker: Speaker): void;
  close(): Promise<void>;
}

export interface FanOut {
  /** The PostgreSQL pool whose LISTEN/NOTIFY carries events to every instance. */
  pool: pg.Pool;
  /** Keeps apps that share one database but not one schema apart. */
  channelPrefix: string;
}

/** The host of an Origin header; undefined for `null` and anything that is not a URL. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Attaches socket.io (same origin, path /socket.io) to the app's HTTP server. With `fanOut`,
 * events reach the clients of every instance on the same PostgreSQL database.
 */
export async function createRealtime(
  httpServer: HttpServer,
  log: FastifyBaseLogger,
  fanOut?: FanOut,
): Promise<Realtime> {
  const io: RealtimeServer = new Server(httpServer, {
    serveClient: false,
    // Same origin only: no CORS headers are sent, so other sites cannot connect from a browser.
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      const host = request.headers.host;
      callback(null, !origin || !host || originHost(origin) === host);
    },
    maxHttpBufferSize: 16 * 1024,
  });
  // socket.io answers its HTTP requests itself (errors too), outside Fastify's hooks.
  httpServer.prependListener('request', (request, response) => {
    if (!request.url?.startsWith('/socket.io/')) return;
    for (const [name, value] of Object.entries(BASELINE_SECURITY_HEADERS)) {
      response.setHeader(name, value);
    }
  });

  if (fanOut) {
    // Large packets travel through `socket_io_attachments` (made with the migrations).
    io.adapter(
      createAdapter(fanOut.pool, {
        channelPrefix: fanOut.channelPrefix,
        errorHandler: (error) => log.warn({ err: error }, 'socket.io fan-out error'),
      }),
    );
  }

  io.on('connection', (socket) => {
    socket.on('watch', (request) => {
      const parsed = watchRequestSchema.safeParse(request);
      if (parsed.success) void socket.join(roomFor(parsed.data));
    });
    socket.on('unwatch', (request) => {
      const parsed = watchRequestSchema.safeParse(request);
      if (parsed.success) void socket.leave(roomFor(parsed.data));
    });
    socket.on('error', (error) => log.debug({ err: error }, 'socket error'));
  });

  return {
    io,
    newQuestion: (question) => {
      io.to([
        roomFor({ room: 'speaker', speakerId: question.speakerId }),
        roomFor({ room: 'questions' }),
      ]).emit('newQuestion', { speakerId: question.speakerId, question });
    },
    memoryCreated: (memory) => io.emit('memoryCreated', { memory }),
    memoryDeleted: (id) => io.emit('memoryDeleted', { id }),
    speakerCreated: (speaker) => io.emit('speakerCreated', { speaker }),
    close: () =>
      new Promise<void>((resolve) => {
        // Disconnect sockets; the HTTP server itself is closed by Fastify.
        io.disconnectSockets(true);
        void io.close(() => resolve());
      }),
  };
}
