import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Tags made lately: the same few lists are polled thousands of times per version. */
const recentTags = new Map<string, string>();
const MAX_RECENT_TAGS = 4096;

/**
 * A weak ETag from the few values that decide a list (its newest id, its row count, the query),
 * so a poll can be answered before any row is read or serialised.
 */
export function versionTag(parts: readonly (string | number | null | undefined)[]): string {
  const text = parts
    .map((part) => (part === null || part === undefined ? '' : String(part)))
    .join('\u0000');
  let tag = recentTags.get(text);
  if (tag === undefined) {
    tag = `W/"${createHash('sha1').update(text).digest('base64url').slice(0, 22)}"`;
    if (recentTags.size >= MAX_RECENT_TAGS) recentTags.clear();
    recentTags.set(text, tag);
  }
  return tag;
}

const opaque = (tag: string) => tag.replace(/^W\//, '');

/** True when an `If-None-Match` header names this tag (weak comparison, as RFC 9110 says). */
function ifNoneMatchNames(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  // What a client polling a list sends back: the one tag it was given.
  if (header === tag) return true;
  if (header.trim() === '*') return true;
  const wanted = opaque(tag);
  return header.split(',').some((candidate) => opaque(candidate.trim()) === wanted);
}

/** True when the request's `If-None-Match` names this tag. */
export const matchesIfNoneMatch = (request: FastifyRequest, tag: string): boolean =>
  ifNoneMatchNames(request.headers['if-none-match'], tag);

/**
 * Sets the validators of an answer that is revalidated every time (`no-cache`) and answers 304
 * when the client already holds this version. Returns true when the 304 was sent.
 */
export function answerNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  tag: string,
): boolean {
  reply.header('etag', tag);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
  if (!matchesIfNoneMatch(request, tag)) return false;
  void reply.code(304).send();
  return true;
}
