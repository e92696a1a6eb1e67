import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idleSweepIntervalMs, limitConnections, registerIdleTimeout } from './connection-limits.ts';

const IDLE_MS = 300;

/** Sends requests on one connection, one after the other: the answers, or until it closes. */
function exchange(port: number, requests: string[], gapMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = () => {
      socket.destroy();
      resolve(received);
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if ((received.match(/^HTTP\/1\.1 /gm) ?? []).length === requests.length) done();
    });
    socket.on('error', reject);
    socket.on('close', done);
    void (async () => {
      for (const request of requests) {
        socket.write(request);
        await new Promise((wait) => setTimeout(wait, gapMs));
      }
    })();
  });
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`;

describe('the idle timeout', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify();
    registerIdleTimeout(app, IDLE_MS, limitConnections(app.server, 100));
    // Answered at once, in its onRequest hook, as a 304 poll is.
    app.get(
      '/now',
      {
        onRequest: (_request, reply, _done) => {
          void reply.code(304).send();
        },
      },
      () => null,
    );
    // Works for longer than the idle timeout before it answers.
    app.get('/slow', async () => {
      await new Promise((wait) => setTimeout(wait, IDLE_MS * 3));
      return { done: true };
    });
    // An answer far larger than the socket buffers: a client that does not read it stalls it.
    app.get('/large', async (_request, reply) =>
      reply.type('application/octet-stream').send(Buffer.alloc(64 * 1024 * 1024)),
    );
    app.post('/echo', async (request) => ({ got: request.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => app.close());

  it('stops while the server works, after an answer made at once on the same connection', async () => {
    const received = await exchange(port, [get('/now'), get('/slow')], IDLE_MS * 2);
    expect(received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 304', 'HTTP/1.1 200']);
    expect(received).toContain('{"done":true}');
  }, 10_000);

  /** Opens a connection, writes `text`, and resolves with how long until the server closed it. */
  function silentAfter(text: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let sentAt = 0;
      socket.on('error', reject);
      socket.on('close', () => resolve(performance.now() - sentAt));
      socket.write(text, () => {
        sentAt = performance.now();
      });
    });
  }

  const latest = IDLE_MS + idleSweepIntervalMs(IDLE_MS) + 250;

  it('closes a connection whose body stops arriving, within a sweep of the timeout', async () => {
    const closedAfter = await silentAfter(
      'POST /echo HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    expect(closedAfter).toBeGreaterThanOrEqual(IDLE_MS - 20);
    expect(closedAfter).toBeLessThan(latest);
  }, 10_000);

  it('closes a connection whose client stops reading the answer', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    socket.write(get('/large'));
    let received = 0;
    const closed = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve());
    });
    // A paused client notices the close only once it reads again: what it gets is cut short.
    await new Promise((wait) => setTimeout(wait, latest + 500));
    socket.resume();
    await closed;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(64 * 1024 * 1024);
  }, 10_000);

  it('leaves a kept-alive connection between requests to the keep-alive timeout', async () => {
    const received = await exchange(port, [get('/now'), get('/now')], IDLE_MS * 3);
    expect(received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 304', 'HTTP/1.1 304']);
  }, 10_000);
});
