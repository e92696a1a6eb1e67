import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import {
  COMPRESSION_THRESHOLD,
  type Encoding,
  acceptedEncoding,
  compressTextAsync,
} from './compression.ts';
import { ifNoneMatchNames } from './conditional-get.ts';

/** One view of a polled list that a request asks for, with its current tag. */
export interface HotView {
  /** Names the view: every request with this key gets the same answer for the same tag. */
  key: string;
  tag: string;
  /** The JSON of the view as it is now; read from the database once per tag. */
  load(): Promise<string>;
}

/**
 * A list every open screen polls every few seconds: the view a `GET` of this URL asks for, when
 * the URL is one of the list's plain forms and the list's version is known in memory; otherwise
 * undefined, and the app answers the request.
 */
export type HotList = (url: string) => HotView | undefined;

/** A list asked for at fixed URLs, whose tag is always in memory (the gallery, the speakers). */
export function fixedUrlList(
  key: string,
  urls: readonly string[],
  view: { tag: () => string; load: () => Promise<string> },
): HotList {
  const asked = new Set(urls);
  return (url) => (asked.has(url) ? { key, tag: view.tag(), load: view.load } : undefined);
}

/** Views whose answers are kept; past it the least recently asked for is dropped. */
const MAX_VIEWS = 512;

interface Entry {
  tag: string;
  identity: Promise<Buffer>;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

/** The answers of one view: the current tag's, with each encoding made once, when first asked. */
class ViewAnswer {
  #entry: Entry | undefined;

  async body(
    view: HotView,
    encoding: Encoding | undefined,
  ): Promise<{ tag: string; body: Buffer; encoding: Encoding | undefined }> {
    // The tag is read before the rows: a change in between only costs one more full answer.
    const { tag } = view;
    let entry = this.#entry;
    if (entry?.tag !== tag) {
      entry = { tag, identity: view.load().then((json) => Buffer.from(json)) };
      this.#entry = entry;
      // A failed read is not kept: the next poll tries again.
      entry.identity.catch(() => {
        if (this.#entry === entry) this.#entry = undefined;
      });
    }
    const identity = await entry.identity;
    if (!encoding || identity.length < COMPRESSION_THRESHOLD) {
      return { tag, body: identity, encoding: undefined };
    }
    const encoded = (entry[encoding] ??= compressTextAsync(identity, encoding));
    return { tag, body: await encoded, encoding };
  }
}

/**
 * Answers the requests every open screen makes every few seconds — a plain `GET` of a hot list —
 * straight from the HTTP server, before the framework's request cycle: a 304 when
 * `If-None-Match` names the current version (no database, nothing serialised), otherwise the
 * view's JSON, read once per version and compressed once per encoding. With the app's security
 * headers. Every other request, and any that fails here, goes on to the app unchanged.
 */
export function answerHotListsFirst(
  server: Server,
  headers: Readonly<Record<string, string>>,
  lists: readonly HotList[],
): void {
  const answers = new Map<string, ViewAnswer>();
  const answerOf = (key: string): ViewAnswer => {
    let answer = answers.get(key);
    if (answer) {
      answers.delete(key);
    } else {
      answer = new ViewAnswer();
      if (answers.size >= MAX_VIEWS) answers.delete(answers.keys().next().value ?? '');
    }
    answers.set(key, answer);
    return answer;
  };
  const viewOf = (url: string): HotView | undefined => {
    for (const list of lists) {
      const view = list(url);
      if (view) return view;
    }
    return undefined;
  };

  // The app's headers as one flat list, made once: no object is built per answer.
  const securityHeaders = Object.entries(headers).flat();
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const passOn = (request: IncomingMessage, response: ServerResponse) => {
    for (const listener of listeners) listener.call(server, request, response);
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const view = request.method === 'GET' && request.url ? viewOf(request.url) : undefined;
    if (!view) {
      passOn(request, response);
      return;
    }
    if (ifNoneMatchNames(request.headers['if-none-match'], view.tag)) {
      response.writeHead(304, [
        ...securityHeaders,
        'etag',
        view.tag,
        'cache-control',
        'no-cache',
        'vary',
        'Accept-Encoding',
      ]);
      response.end();
      return;
    }
    answerOf(view.key)
      .body(view, acceptedEncoding(request.headers['accept-encoding']))
      .then(
        ({ tag, body, encoding }) => {
          if (response.destroyed) return;
          response.writeHead(200, [
            ...securityHeaders,
            'content-type',
            'application/json; charset=utf-8',
            'content-length',
            String(body.length),
            'etag',
            tag,
            'cache-control',
            'no-cache',
            'vary',
            'Accept-Encoding',
            ...(encoding ? ['content-encoding', encoding] : []),
          ]);
          response.end(body);
        },
        // The database is down, say: the app answers with its own error handling.
        () => passOn(request, response),
      );
  });
}
