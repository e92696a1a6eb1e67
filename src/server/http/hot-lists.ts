import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { COMPRESSION_THRESHOLD, acceptedEncoding } from './compression.ts';
import { ifNoneMatchNames } from './conditional-get.ts';

/**
 * A list every open screen polls every few seconds (the gallery's first page, the speakers):
 * the URLs that ask for it exactly, its current tag (kept in memory), and its JSON answer.
 */
export interface HotList {
  urls: readonly string[];
  tag(): string;
  /** The JSON of the list as it is now; read from the database once per tag. */
  load(): Promise<string>;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Encoding = 'br' | 'gzip' | 'identity';

interface Entry {
  tag: string;
  identity: Promise<Buffer>;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

/** One list's answer for its current tag, with each encoding made once, when first asked for. */
class ListAnswer {
  readonly #list: HotList;
  #entry: Entry | undefined;

  constructor(list: HotList) {
    this.#list = list;
  }

  async body(encoding: Encoding): Promise<{ tag: string; body: Buffer; encoding: Encoding }> {
    // The tag is read before the rows: a change in between only costs one more full answer.
    const tag = this.#list.tag();
    let entry = this.#entry;
    if (entry?.tag !== tag) {
      entry = { tag, identity: this.#list.load().then((json) => Buffer.from(json)) };
      this.#entry = entry;
      // A failed read is not kept: the next poll tries again.
      entry.identity.catch(() => {
        if (this.#entry === entry) this.#entry = undefined;
      });
    }
    const identity = await entry.identity;
    if (encoding === 'identity' || identity.length < COMPRESSION_THRESHOLD) {
      return { tag, body: identity, encoding: 'identity' };
    }
    if (encoding === 'br') {
      entry.br ??= brotli(identity, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
      });
      return { tag, body: await entry.br, encoding };
    }
    entry.gzip ??= gzip(identity, { level: 6 });
    return { tag, body: await entry.gzip, encoding };
  }
}

/**
 * Answers the requests every open screen makes every few seconds — a plain `GET` of a hot list —
 * straight from the HTTP server, before the framework's request cycle: a 304 when
 * `If-None-Match` names the current version (no database, nothing serialised), otherwise the
 * list's JSON, read once per version and compressed once per encoding. With the app's security
 * headers. Every other request, and any that fails here, goes on to the app unchanged.
 */
export function answerHotListsFirst(
  server: Server,
  headers: Readonly<Record<string, string>>,
  lists: readonly HotList[],
): void {
  const byUrl = new Map<string, { list: HotList; answer: ListAnswer }>();
  for (const list of lists) {
    const answer = new ListAnswer(list);
    for (const url of list.urls) byUrl.set(url, { list, answer });
  }
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const passOn = (request: IncomingMessage, response: ServerResponse) => {
    for (const listener of listeners) listener.call(server, request, response);
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const hot = request.method === 'GET' && request.url ? byUrl.get(request.url) : undefined;
    if (!hot) {
      passOn(request, response);
      return;
    }
    const tag = hot.list.tag();
    if (ifNoneMatchNames(request.headers['if-none-match'], tag)) {
      response.writeHead(304, {
        ...headers,
        etag: tag,
        'cache-control': 'no-cache',
        vary: 'Accept-Encoding',
      });
      response.end();
      return;
    }
    hot.answer.body(acceptedEncoding(request.headers['accept-encoding']) ?? 'identity').then(
      ({ tag: current, body, encoding }) => {
        if (response.destroyed) return;
        response.writeHead(200, {
          ...headers,
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(body.length),
          etag: current,
          'cache-control': 'no-cache',
          vary: 'Accept-Encoding',
          ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
        });
        response.end(body);
      },
      // The database is down, say: the app answers with its own error handling.
      () => passOn(request, response),
    );
  });
}
