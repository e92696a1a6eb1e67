// The attendees' socket connections, in a process of their own (forked by
// bench/conference/attendees.ts). Every attendee is a phone of its own; in one process, a
// broadcast to 10,000 sockets arrives as 10,000 reads in one turn of the event loop, which would
// hold up the polls whose latency the generator measures (decision 092).
import { io, type Socket } from 'socket.io-client';
import type { SocketCounters, SocketsJob } from './profile.ts';

function run(job: SocketsJob): void {
  const counters: SocketCounters = { open: 0, connectErrors: 0, refused: 0, drops: 0, events: 0 };
  const sockets: Socket[] = [];
  let running = true;

  function arrive(i: number): void {
    const speakerId = job.watching[i];
    const socket = io(job.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      timeout: 20_000,
    });
    sockets.push(socket);
    socket.on('connect', () => {
      counters.open++;
      if (speakerId) socket.emit('watch', { room: 'speaker', speakerId });
    });
    socket.on('connect_error', (error: Error & { description?: unknown }) => {
      counters.connectErrors++;
      // The WebSocket's handshake answered with a status (ws: "Unexpected server response: 503").
      if (String((error.description as Error | undefined)?.message).endsWith(': 503')) {
        counters.refused++;
      }
    });
    socket.on('disconnect', () => {
      counters.open--;
      if (running) counters.drops++;
    });
    socket.onAny(() => counters.events++);
  }

  // Arrivals at the job's rate, from the moment the job came.
  const t0 = performance.now();
  const arrivalMs = 1000 / job.arrivalPerSecond;
  let arrived = 0;
  const arrivals = setInterval(() => {
    const elapsed = performance.now() - t0;
    while (arrived < job.watching.length && arrived * arrivalMs <= elapsed) arrive(arrived++);
    if (arrived === job.watching.length) clearInterval(arrivals);
  }, 5);
  const reports = setInterval(() => process.send?.(counters), 100);

  process.once('message', () => {
    running = false;
    clearInterval(arrivals);
    clearInterval(reports);
    for (const socket of sockets) socket.close();
    process.send?.(counters, () => process.disconnect());
  });
}

process.once('message', run);
