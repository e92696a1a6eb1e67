import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { ifNoneMatchNames } from './conditional-get.ts';

/**
 * The current tag of a resource polled without a query (e.g. `GET /api/memory`), or undefined
 * when the path is not one of them.
 */
export type PollTag = (path: string) => string | undefined;

/**
 * Answers the one request every open gallery makes every 3 s — a plain `GET` of a polled list
 * whose `If-None-Match` names the current version — with a 304 straight from the HTTP server,
 * with the app's security headers, before the framework's request cycle. Everything else (and
 * every poll that is not a match) goes on to the app's own listeners unchanged. The version is
 * kept in memory, so this path reads no database and serialises nothing.
 */
export function answerMatchingPollsFirst(
  server: Server,
  headers: Readonly<Record<string, string>>,
  tagFor: PollTag,
): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const condition = request.headers['if-none-match'];
    if (condition && request.method === 'GET' && request.url) {
      const tag = tagFor(request.url);
      if (tag && ifNoneMatchNames(condition, tag)) {
        response.writeHead(304, {
          ...headers,
          etag: tag,
          'cache-control': 'no-cache',
          vary: 'accept-encoding',
        });
        response.end();
        return;
      }
    }
    for (const listener of listeners) listener.call(server, request, response);
  });
}
