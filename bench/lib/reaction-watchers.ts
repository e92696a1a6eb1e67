// A process of its own holding the sockets that watch a session's reactions
// (`bench/suites/reactions.ts`), so that receiving their events does not delay the process sending
// the taps and timing them. Arguments: url, session id, sockets. Tells its parent `ready` once
// every socket watches the session, then, when asked (`stop`), how many `reactions` events the
// sockets received, the pace they came at (the gaps between each socket's events and the time
// those gaps span: the pace is gaps / span, whatever the window they were counted over), and the
// taps the first socket's sums add up to.
import { io, type Socket } from 'socket.io-client';

const [url = '', sessionId = '', count = '0'] = process.argv.slice(2);
const sockets: Socket[] = [];
let events = 0;
let gaps = 0;
let spanMs = 0;
let summed = 0;

for (let i = 0; i < Number(count); i += 500) {
  await Promise.all(
    Array.from({ length: Math.min(500, Number(count) - i) }, (_, j) => {
      const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
      sockets.push(socket);
      const first = i + j === 0;
      let last: number | undefined;
      socket.on('reactions', (payload: { counts: Record<string, number> }) => {
        events += 1;
        const now = performance.now();
        if (last !== undefined) {
          gaps += 1;
          spanMs += now - last;
        }
        last = now;
        if (first) for (const n of Object.values(payload.counts)) summed += n;
      });
      return new Promise<void>((resolve, reject) => {
        socket.on('connect', () => {
          socket.emit('watch', { room: 'session', sessionId }, () => resolve());
        });
        socket.on('connect_error', reject);
      });
    }),
  );
}
process.send?.({ ready: true });
process.on('message', (message: { stop?: boolean }) => {
  if (!message.stop) return;
  for (const socket of sockets) socket.close();
  process.send?.({ events, gaps, spanMs, summed }, () => process.exit(0));
});
