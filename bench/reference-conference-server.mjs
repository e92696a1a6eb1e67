// The reference of the conference profile and the ceiling: bare node:http + socket.io answering
// fixed responses by path (304 when If-None-Match names the fixed tag), taking posts without
// storing anything and sending the same socket events the app sends.
import http from 'node:http';
import { Server } from 'socket.io';

/** { [path]: { etag, body } } for the polled lists. */
const responses = JSON.parse(process.env.RESPONSES ?? '{}');

const server = http.createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method === 'POST') {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
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
        io.emit('memoryCreated', { memory: { _id: 'x' } });
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
  response.writeHead(200, {
    'content-type': 'application/json',
    etag: answer.etag,
    'cache-control': 'no-cache',
  });
  response.end(answer.body);
});
const io = new Server(server, { serveClient: false });
io.on('connection', (socket) => {
  socket.on('watch', (watch) => {
    if (watch?.room === 'speaker') void socket.join(`speaker:${watch.speakerId}`);
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
