import type { FastifyReply } from 'fastify';

/**
 * The `Cache-Control` of each kind of answer, written once. `cacheHeaders` sets them on a reply;
 * answers written to the socket by hand (a refused connection, a request the parser refused)
 * take the value from here.
 */
export const CACHE_CONTROL = {
  /** Hashed build output and pictures whose address names them: kept a year, never asked again. */
  immutable: 'public, max-age=31536000, immutable',
  /**
   * Stored media (decision 146). The bytes under a key never change, so a browser keeps them a
   * year without asking again: it is the private copy of someone who saw them already. A shared
   * cache (a CDN or proxy in front of the app) must ask the app before every reuse
   * (`s-maxage=0`, `proxy-revalidate`), so a deleted memory's files are a 404 for everyone from
   * the moment they are deleted; the question is cheap, a 304 by ETag.
   */
  media: 'public, max-age=31536000, immutable, s-maxage=0, proxy-revalidate',
  /** Files that may change under the same address (`public/`, the API reference): an hour. */
  hour: 'public, max-age=3600, must-revalidate',
  /** Kept, but asked again every time, answered 304 by its ETag (lists, pages, documents). */
  revalidate: 'no-cache',
  /** The admin's polled lists: the same, for the admin's browser only. */
  privateRevalidate: 'private, no-cache',
  /** Written once and never reused: writes, errors, tokens, uploads. */
  noStore: 'no-store',
  /** One person's own answer (an edit token, a download): no cache keeps it, shared or not. */
  privateNoStore: 'private, no-store',
} as const;

const setting =
  (value: string) =>
  <Reply extends FastifyReply>(reply: Reply): Reply => {
    reply.header('cache-control', value);
    return reply;
  };

/** Sets the `Cache-Control` of one kind of answer (see `CACHE_CONTROL`); returns the reply. */
export const cacheHeaders = {
  immutable: setting(CACHE_CONTROL.immutable),
  media: setting(CACHE_CONTROL.media),
  hour: setting(CACHE_CONTROL.hour),
  revalidate: setting(CACHE_CONTROL.revalidate),
  privateRevalidate: setting(CACHE_CONTROL.privateRevalidate),
  noStore: setting(CACHE_CONTROL.noStore),
  privateNoStore: setting(CACHE_CONTROL.privateNoStore),
};
