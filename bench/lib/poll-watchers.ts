// A process of its own holding the sockets that watch a poll (`bench/suites/polls.ts`), so that
// receiving thousands of events does not delay the process sending the answers and timing them.
// Arguments: url, poll id, sockets, voters of the final result. Tells its parent `ready` once
// every socket is connected, then, when asked (`stop`), when each socket first held the final
// result (milliseconds since the epoch) and how many events they received.
import { io, type Socket } from 'socket.io-client';

const [url = '', pollId = '', count = '0', final = '0'] = process.argv.slice(2);
const now = () => performance.timeOrigin + performance.now();
const sockets: Socket[] = [];
const finals: number[] = [];
let events = 0;

for (let i = 0; i < Number(count); i += 500) {
  await Promise.all(
    Array.from(
      { length: Math.min(500, Number(count) - i) },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = io(url, {
            transports: ['websocket'],
            forceNew: true,
            reconnection: false,
          });
          sockets.push(socket);
          let done = false;
          socket.on('pollUpdated', (payload: { poll: { _id: string; voters: number } }) => {
            events += 1;
            if (!done && payload.poll._id === pollId && payload.poll.voters >= Number(final)) {
              done = true;
              finals.push(now());
            }
          });
          socket.on('connect', () => resolve());
          socket.on('connect_error', reject);
        }),
    ),
  );
}
process.send?.({ ready: true });
process.on('message', (message: { stop?: boolean }) => {
  if (!message.stop) return;
  for (const socket of sockets) socket.close();
  process.send?.({ finals, events }, () => process.exit(0));
});
