// The reference of the benchmarks: a bare node:http server answering fixed responses by path.
import http from 'node:http';

const responses = JSON.parse(process.env.RESPONSES ?? '{}');
const fallback = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
http
  .createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const answer = responses[path] ?? fallback;
    response.writeHead(answer.status, answer.headers);
    response.end(answer.status === 304 ? undefined : answer.body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
