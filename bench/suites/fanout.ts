import { io, type Socket } from 'socket.io-client';
import { startConferenceReference } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';
import { seededServer } from './gallery.ts';

const CLIENTS = 1000;
const POSTS = 20;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Connects CLIENTS sockets watching one speaker; posts questions; measures POST start → arrival. */
async function measure(
  baseUrl: string,
  speakerId: string,
  post: (text: string) => Promise<Response>,
) {
  const sockets: Socket[] = [];
  const pending = new Map<string, { start: number; latencies: number[] }>();
  await Promise.all(
    Array.from(
      { length: CLIENTS },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = io(baseUrl, {
            transports: ['websocket'],
            forceNew: true,
            reconnection: false,
          });
          sockets.push(socket);
          socket.on('newQuestion', (payload: { question: { question: string } }) => {
            const entry = pending.get(payload.question.question);
            if (entry) entry.latencies.push(performance.now() - entry.start);
          });
          // Ready once the server has acknowledged the watch: the socket is in the room.
          socket.on('connect', () => {
            socket
              .emitWithAck('watch', { room: 'speaker', speakerId })
              .then(() => resolve(), reject);
          });
          socket.on('connect_error', reject);
        }),
    ),
  );
  const all: number[] = [];
  let failures = 0;
  for (let i = 0; i < POSTS; i++) {
    const text = `Fan-out question ${i} ${Math.random()}`;
    const entry = { start: performance.now(), latencies: [] as number[] };
    pending.set(text, entry);
    const response = await post(text);
    if (!response.ok) failures++;
    const deadline = performance.now() + 5000;
    while (entry.latencies.length < CLIENTS && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    failures += CLIENTS - entry.latencies.length;
    all.push(...entry.latencies);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const socket of sockets) socket.close();
  all.sort((a, b) => a - b);
  return { p50: percentile(all, 50), p99: percentile(all, 99), failures };
}

/** 1,000 socket clients watching one speaker (200 speakers, 20,000 questions stored). */
export async function questionFanout(): Promise<Row[]> {
  const { server, seeded } = await seededServer({ memories: 0, speakers: 200, questions: 20_000 });
  // Bare node:http + socket.io: a posted question is only sent to the room, nothing stored.
  const reference = await startConferenceReference({});
  try {
    const speakerId = seeded.speakerIds[100] ?? '';
    const ref = await measure(reference.url, speakerId, (question) =>
      fetch(`${reference.url}/questions`, {
        method: 'POST',
        body: JSON.stringify({ speakerId, question }),
      }),
    );
    const app = await measure(server.url, speakerId, (question) =>
      fetch(`${server.url}/questions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          speakerId,
          speakerName: 'Speaker 100',
          question,
          askerUsername: 'bench',
        }),
      }),
    );
    return [
      {
        name: `newQuestion to ${CLIENTS} clients, median ms (POST start → arrival)`,
        value: fmt(app.p50, 1),
        reference: `${fmt(ref.p50, 1)} bare socket.io`,
        ratio: fmt(app.p50 / ref.p50, 2),
        target: '< 50 ms',
        met: app.p50 < 50 && app.failures === 0,
      },
      {
        name: `newQuestion to ${CLIENTS} clients, p99 ms (missed: ${app.failures})`,
        value: fmt(app.p99, 1),
        reference: `${fmt(ref.p99, 1)} bare socket.io (missed: ${ref.failures})`,
        ratio: fmt(app.p99 / ref.p99, 2),
        target: '< 250 ms',
        met: app.p99 < 250 && app.failures === 0,
      },
    ];
  } finally {
    await reference.stop();
    await server.stop();
  }
}
