import { describe, expect, it } from 'vitest';
import type { WatchRequest } from '../../shared/events.ts';
import { type LiveSocket, createLive } from './live-connection.ts';

type Handler = (...args: unknown[]) => void;

/** Just enough of a socket.io client socket: it records what is sent and acknowledges it. */
class FakeSocket {
  connected = false;
  readonly sent: [string, WatchRequest][] = [];
  private readonly handlers = new Map<string, Handler[]>();
  private readonly anyHandlers: Handler[] = [];

  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  once(event: string, handler: Handler) {
    const once: Handler = (...args) => {
      this.handlers.set(
        event,
        (this.handlers.get(event) ?? []).filter((h) => h !== once),
      );
      handler(...args);
    };
    return this.on(event, once);
  }
  onAny(handler: Handler) {
    this.anyHandlers.push(handler);
    return this;
  }
  timeout() {
    return {
      emitWithAck: (event: string, request: WatchRequest) => {
        this.sent.push([event, request]);
        return Promise.resolve(true);
      },
    };
  }

  /** The connection comes (again): socket.io fires `connect`. */
  connect() {
    this.connected = true;
    for (const handler of this.handlers.get('connect') ?? []) handler();
  }
  drop() {
    this.connected = false;
  }
  receive(event: string, payload: unknown) {
    for (const handler of this.anyHandlers) handler(event, payload);
  }
}

/** Lets every pending promise callback run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

const setUp = () => {
  const socket = new FakeSocket();
  const live = createLive(() => Promise.resolve(socket as unknown as LiveSocket));
  return { socket, live };
};

const ada = { room: 'speaker', speakerId: '0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c5d' } as const;

describe('the live connection', () => {
  it('joins a room once for two watchers, when connected, and leaves it with the last', async () => {
    const { socket, live } = setUp();
    const listening = live.listen({ event: () => undefined, connect: () => undefined });
    await settled();
    socket.connect();

    const first = live.watchRoom(ada);
    const second = live.watchRoom(ada);
    expect(await first.joined).toBe(true);
    expect(await second.joined).toBe(true);
    expect(socket.sent).toEqual([['watch', ada]]);

    first.leave();
    first.leave();
    await settled();
    expect(socket.sent).toHaveLength(1);
    second.leave();
    await settled();
    expect(socket.sent).toEqual([
      ['watch', ada],
      ['unwatch', ada],
    ]);
    listening();
  });

  it('joins the rooms again at every connect, then lets the screens catch up', async () => {
    const { socket, live } = setUp();
    const log: string[] = [];
    live.listen({ event: () => undefined, connect: () => log.push('catch up') });
    const watch = live.watchRoom({ room: 'questions' });
    await settled();
    // Not connected yet: the first connect joins the room, and only then do the lists refetch.
    expect(socket.sent).toEqual([]);
    socket.connect();
    expect(await watch.joined).toBe(true);
    await settled();
    expect(socket.sent).toEqual([['watch', { room: 'questions' }]]);
    expect(log).toEqual(['catch up']);

    socket.drop();
    socket.connect();
    await settled();
    expect(socket.sent).toEqual([
      ['watch', { room: 'questions' }],
      ['watch', { room: 'questions' }],
    ]);
    expect(log).toEqual(['catch up', 'catch up']);

    // A room left while the connection was down is not joined again, nor left twice.
    socket.drop();
    watch.leave();
    socket.connect();
    await settled();
    expect(socket.sent).toHaveLength(2);
    expect(log).toHaveLength(3);
  });

  it('hands on the events that parse, and drops the others', async () => {
    const { socket, live } = setUp();
    const received: [string, unknown][] = [];
    const stop = live.listen({
      event: (event, payload) => received.push([event, payload]),
      connect: () => undefined,
    });
    await settled();
    const id = '0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c5e';
    socket.receive('memoryDeleted', { id });
    socket.receive('memoryDeleted', { id: '../etc/passwd' });
    socket.receive('somethingElse', { id });
    expect(received).toEqual([['memoryDeleted', { id }]]);

    stop();
    socket.receive('memoryDeleted', { id });
    expect(received).toHaveLength(1);
  });
});
