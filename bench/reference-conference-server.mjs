// The reference of the conference profile and the ceiling: bare node:http + socket.io answering
// fixed responses by path (304 when If-None-Match names the fixed tag), taking posts without
// storing anything and sending the same socket events the app sends, the same way: events for
// everybody a slice of the sockets per turn of the event loop (decision 092). The fixed bodies are
// compressed once at start, as the client accepts, so the same bytes cross the wire as from the
// app (which compresses each list once per version).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { Server } from 'socket.io';

/** { [path]: { etag, body } } for the polled lists, from a file (they outgrow an env variable). */
const responses = JSON.parse(
  process.env.RESPONSES_FILE ? readFileSync(process.env.RESPONSES_FILE, 'utf8') : '{}',
);
for (const answer of Object.values(responses)) {
  const body = Buffer.from(answer.body);
  answer.identity = body;
  answer.br = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
  });
  answer.gzip = zlib.gzipSync(body, { level: 6 });
}
const encodingOf = (header = '') =>
  /\bbr\b/.test(header) ? 'br' : /\bgzip\b/.test(header) ? 'gzip' : 'identity';

const votes = new Map();
/** Polls: answers counted in memory, the result sent to every socket at most 4 times a second. */
const polls = new Map();
function pollAnswered(id, optionId) {
  const poll = polls.get(id) ?? { voters: 0, counts: {}, timer: undefined, dirty: false };
  polls.set(id, poll);
  poll.voters += 1;
  poll.counts[optionId] = (poll.counts[optionId] ?? 0) + 1;
  const send = () => {
    poll.dirty = false;
    const options = Object.entries(poll.counts).map(([key, count]) => ({ id: key, count }));
    io.local.emit('pollUpdated', { poll: { _id: id, voters: poll.voters, results: { options } } });
    poll.timer = setTimeout(() => {
      poll.timer = undefined;
      if (poll.dirty) send();
    }, 250);
  };
  if (poll.timer) poll.dirty = true;
  else send();
  return poll;
}
/**
 * Reactions: taps summed in memory per session at the app's pace (at once after a quiet 250 ms,
 * else one sum at the end of the window), sent to the session's room.
 */
const reactionWindows = new Map();
function reacted(sessionId, emoji) {
  const open = reactionWindows.get(sessionId);
  if (open) {
    open.counts[emoji] = (open.counts[emoji] ?? 0) + 1;
    return;
  }
  const send = (counts) =>
    io.local.to(`session:${sessionId}`).emit('reactions', { sessionId, counts });
  const windowOf = () => {
    const window = { counts: {} };
    window.timer = setTimeout(() => {
      reactionWindows.delete(sessionId);
      if (Object.keys(window.counts).length === 0) return;
      reactionWindows.set(sessionId, windowOf());
      send(window.counts);
    }, 250);
    return window;
  };
  reactionWindows.set(sessionId, windowOf());
  send({ [emoji]: 1 });
}
const server = http.createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method === 'POST' && path === '/api/reactions') {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const { emoji, sessionId } = JSON.parse(Buffer.concat(chunks).toString());
      reacted(sessionId ?? null, emoji);
      response.writeHead(202, { 'content-type': 'application/json' });
      response.end('{"message":"Reaction sent"}');
    });
    return;
  }
  const answerTo = request.method === 'PUT' && /^\/api\/polls\/([^/]+)\/vote$/.exec(path);
  if (answerTo) {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const { optionIds } = JSON.parse(Buffer.concat(chunks).toString());
      const poll = pollAnswered(answerTo[1], optionIds[0]);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ poll: { _id: answerTo[1], voters: poll.voters } }));
    });
    return;
  }
  // A vote: counted in memory and sent to the speaker's room at once (no coalescing).
  const voteOn = request.method === 'PUT' && /^\/api\/questions\/([^/]+)\/vote$/.exec(path);
  if (voteOn) {
    request.resume();
    request.on('end', () => {
      const id = voteOn[1];
      const count = (votes.get(id) ?? 0) + 1;
      votes.set(id, count);
      const speakerId = String(request.headers['x-speaker-id'] ?? '');
      const question = { _id: id, speakerId, votes: count };
      if (speakerId) io.to(`speaker:${speakerId}`).emit('questionUpdated', { question });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ question }));
    });
    return;
  }
  if (request.method === 'POST') {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      if (path === '/api/attendees/challenge') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"challenge":null}');
        return;
      }
      if (path === '/api/attendees') {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end('{"username":"bench","token":"reference"}');
        return;
      }
      if (path === '/questions') {
        const { speakerId, question } = JSON.parse(Buffer.concat(chunks).toString());
        io.to(`speaker:${speakerId}`).emit('newQuestion', {
          speakerId,
          question: {
            _id: 'x',
            speakerId,
            speakerName: 'x',
            askerUsername: 'bench',
            question,
            createdAt: new Date().toISOString(),
          },
        });
      } else {
        toEveryone('memoryCreated', { memory: { _id: 'x' } });
      }
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end('{"message":"ok"}');
    });
    return;
  }
  const answer = responses[path];
  if (!answer) {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('ok');
    return;
  }
  if (request.headers['if-none-match'] === answer.etag) {
    response.writeHead(304, { etag: answer.etag, 'cache-control': 'no-cache' });
    response.end();
    return;
  }
  const encoding =
    answer.identity.length < 1024 ? 'identity' : encodingOf(request.headers['accept-encoding']);
  response.writeHead(200, {
    'content-type': 'application/json',
    etag: answer.etag,
    'cache-control': 'no-cache',
    vary: 'Accept-Encoding',
    ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
  });
  response.end(answer[encoding]);
});
const io = new Server(server, { serveClient: false });
const SLICES = 64;
let joined = 0;
function toEveryone(event, payload, slice = 0) {
  io.to(`everyone:${slice}`).emit(event, payload);
  if (slice + 1 < SLICES) setImmediate(toEveryone, event, payload, slice + 1);
}
io.on('connection', (socket) => {
  void socket.join(`everyone:${joined++ % SLICES}`);
  socket.on('watch', (watch, ack) => {
    if (watch?.room === 'speaker') void socket.join(`speaker:${watch.speakerId}`);
    if (watch?.room === 'session') void socket.join(`session:${watch.sessionId}`);
    if (typeof ack === 'function') ack(watch?.room === 'speaker' || watch?.room === 'session');
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
