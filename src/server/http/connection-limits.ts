import fs from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { BASELINE_SECURITY_HEADERS } from './security-headers.ts';

/** Seconds a client turned away at the connection cap is told to wait. */
const FULL_RETRY_AFTER_SECONDS = 5;

/** The process's open-file limit (soft), from /proc; undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    if (!match?.[1] || match[1] === 'unlimited') return undefined;
    return Number(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * The default connection cap, below the open-file limit by a reserve for the files the
 * connections' requests open (an upload holds its connection and a staged file at once), the
 * database, logs and the media store, so that the process never runs out of files (EMFILE):
 * up to a limit of 4,096, half of it less 64 (448 at the common 1,024); above, all but 2,048,
 * so that a server given the files for 10,000 attendees' sockets takes them. 10,000 where the
 * limit cannot be read.
 */
export function defaultMaxConnections(limit = openFileLimit()): number {
  if (limit === undefined) return 10_000;
  if (limit <= 4096) return Math.max(16, Math.floor(limit / 2) - 64);
  return limit - 2048;
}

const FULL_BODY = JSON.stringify({
  error: 'The server has too many connections right now; try again in a few seconds',
  code: 'SERVICE_UNAVAILABLE',
});
const FULL_ANSWER =
  'HTTP/1.1 503 Service Unavailable\r\n' +
  Object.entries({
    ...BASELINE_SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(FULL_BODY)),
    'cache-control': 'no-store',
    'retry-after': String(FULL_RETRY_AFTER_SECONDS),
    connection: 'close',
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  `\r\n${FULL_BODY}`;

/**
 * Caps the open connections of `server` at `max`: one more is answered 503 with `Retry-After`
 * (JSON, the security headers) and closed, before the HTTP parser or any route sees it. Answers
 * how many connections are open, for tests and logs.
 */
export function limitConnections(server: Server, max: number): { open(): number } {
  let open = 0;
  // Node's own connection listener (the HTTP parser) and any other: run only when admitted.
  const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      // What the client sends is read and dropped; once the answer is out the socket is closed
      // at once: a refused connection must not hold a file descriptor for long either.
      socket.on('error', () => socket.destroy());
      socket.resume();
      socket.end(FULL_ANSWER, () => socket.destroy());
      socket.setTimeout(1_000, () => socket.destroy());
      return;
    }
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
    for (const listener of listeners) listener.call(server, socket);
  });
  return { open: () => open };
}

/**
 * The idle timeout (`IDLE_TIMEOUT`, the server's socket timeout) is for the client: it runs while
 * a request arrives and while its answer is sent, not while the server works on it (an upload
 * waiting for an image worker is not an idle client).
 */
export function registerIdleTimeout(app: FastifyInstance, idleMs: number): void {
  if (idleMs <= 0) return;
  // Callback hooks: they run on every request (decision 105).
  app.addHook('onRequest', (request, reply, done) => {
    const { raw } = request;
    const pause = () => raw.socket.setTimeout(0);
    const hasBody =
      raw.headers['transfer-encoding'] !== undefined ||
      Number(raw.headers['content-length'] ?? 0) > 0;
    if (hasBody && !raw.readableEnded) {
      raw.once('end', pause);
    } else {
      // Stopped once the work of this turn is done, before anything can wait: an answer made
      // at once (a 304 poll, answered in its route's onRequest hook) never stops the clock, and
      // so costs no timer of ours (decision 184).
      queueMicrotask(() => {
        if (!reply.sent) pause();
      });
    }
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    const { socket } = request.raw;
    // Started again where it was stopped. Upgraded or closed sockets have nothing to time.
    if (socket.timeout === 0 && !socket.destroyed) socket.setTimeout(idleMs);
    done(null, payload);
  });
}

/**
 * Once the app is closing, every answer still being sent says `Connection: close`, so its
 * connection ends with it: a graceful shutdown ends as soon as the last request in flight is
 * answered, instead of when the client drops its idle keep-alive connection.
 */
export function registerCloseOnShutdown(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
