import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cacheHeaders } from './cache-headers.ts';

/**
 * The weak ETag of a text or bytes: 22 characters of its SHA-1 (132 bits, base64url), the one
 * way every answer's tag is made, from a body or from the few values that decide one.
 */
export const bodyTag = (body: string | Buffer): string =>
  `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

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
  if (!reply.hasHeader('cache-control')) cacheHeaders.revalidate(reply);
  if (!matchesIfNoneMatch(request, tag)) return false;
  void reply.code(304).send();
  return true;
}
