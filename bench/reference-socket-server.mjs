// Reference of the fan-out benchmark: bare node:http + socket.io; POST /emit sends a fixed
// newQuestion to the room the clients watch, with no database and no validation.
import http from 'node:http';
import { Server } from 'socket.io';

const server = http.createServer((request, response) => {
  if (request.method === 'POST') {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const { speakerId, question } = JSON.parse(body);
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
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end('{}');
    });
    return;
  }
  response.writeHead(200);
  response.end('ok');
});
const io = new Server(server, { serveClient: false });
io.on('connection', (socket) => {
  socket.on('watch', (request) => {
    if (request?.room === 'speaker') void socket.join(`speaker:${request.speakerId}`);
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
