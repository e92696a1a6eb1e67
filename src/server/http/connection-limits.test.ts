import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerIdleTimeout } from './connection-limits.ts';

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
    app = Fastify({ connectionTimeout: IDLE_MS });
    registerIdleTimeout(app, IDLE_MS);
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
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => app.close());

  it('stops while the server works, after an answer made at once on the same connection', async () => {
    const received = await exchange(port, [get('/now'), get('/slow')], IDLE_MS * 2);
    expect(received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 304', 'HTTP/1.1 200']);
    expect(received).toContain('{"done":true}');
  }, 10_000);
});
