import fs from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { rawErrorAnswer, unavailable } from '../errors.ts';
import { BASELINE_SECURITY_HEADERS } from './security-headers.ts';

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

const FULL_ANSWER = rawErrorAnswer(unavailable('connections'), BASELINE_SECURITY_HEADERS);

/**
 * Caps the open connections of `server` at `max`: one more is answered 503 with `Retry-After`
 * (JSON, the security headers) and closed, before the HTTP parser or any route sees it. Answers
 * the open connections, which the idle sweep looks at (`registerIdleTimeout`).
 */
export function limitConnections(server: Server, max: number): ReadonlySet<Socket> {
  const open = new Set<Socket>();
  // Node's own connection listener (the HTTP parser) and any other: run only when admitted.
  const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      // What the client sends is read and dropped; once the answer is out the socket is closed
      // at once: a refused connection must not hold a file descriptor for long either.
      socket.on('error', () => socket.destroy());
      socket.resume();
      socket.end(FULL_ANSWER, () => socket.destroy());
      socket.setTimeout(1_000, () => socket.destroy());
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    for (const listener of listeners) listener.call(server, socket);
  });
  return open;
}

/** What Node's HTTP server keeps on a socket: the request being parsed and the answer in flight. */
interface HttpSocket extends Socket {
  parser?: { incoming?: IncomingMessage | null } | null;
  _httpMessage?: ServerResponse | null;
}

/**
 * Whether the connection is waiting on its client: a request body still arriving, or an answer
 * the client is not reading (bytes queued on the socket). Not while the server works on a
 * request, not between requests (the keep-alive timeout), not before the headers are in (the
 * headers timeout), and never on an upgraded socket (a WebSocket has no parser or answer).
 */
function waitsOnClient(socket: HttpSocket): boolean {
  const incoming = socket.parser?.incoming;
  if (incoming && !incoming.complete) return true;
  return Boolean(socket._httpMessage) && socket.writableLength > 0;
}

/** How often the idle sweep looks at the connections: a quarter of the timeout, at most 1 s. */
export const idleSweepIntervalMs = (idleMs: number): number =>
  Math.max(50, Math.min(1_000, Math.floor(idleMs / 4)));

/**
 * The idle timeout (`IDLE_TIMEOUT`) is for the client: a connection that moves no byte for that
 * long while a request arrives or while its answer is sent is closed, not while the server works
 * on it (an upload waiting for an image worker is not an idle client). A sweep looks at every
 * connection's byte counters a few times per timeout instead of a timer re-armed on every read
 * and write, so a request costs the idle timeout nothing (decision 186): a connection silent
 * for the timeout is closed within a sweep interval more.
 */
export function registerIdleTimeout(
  app: FastifyInstance,
  idleMs: number,
  connections: ReadonlySet<HttpSocket>,
): void {
  if (idleMs <= 0) return;
  // Per connection waiting on its client: its byte count, and since when it has not moved.
  const seen = new WeakMap<HttpSocket, { bytes: number; since: number }>();
  const sweep = () => {
    const now = performance.now();
    for (const socket of connections) {
      if (!waitsOnClient(socket)) {
        seen.delete(socket);
        continue;
      }
      const bytes = socket.bytesRead + socket.bytesWritten;
      const last = seen.get(socket);
      if (last?.bytes !== bytes) {
        seen.set(socket, { bytes, since: now });
      } else if (now - last.since >= idleMs) {
        socket.destroy();
      }
    }
  };
  const timer = setInterval(sweep, idleSweepIntervalMs(idleMs));
  timer.unref();
  app.addHook('onClose', () => clearInterval(timer));
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
