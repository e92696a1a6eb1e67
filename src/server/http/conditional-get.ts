import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A weak ETag from the few values that decide a list (its newest id, its row count, the query),
 * so a poll can be answered before any row is read or serialised.
 */
export function versionTag(parts: readonly (string | number | null | undefined)[]): string {
  const hash = createHash('sha1')
    .update(
      parts.map((part) => (part === null || part === undefined ? '' : String(part))).join('\u0000'),
    )
    .digest('base64url')
    .slice(0, 22);
  return `W/"${hash}"`;
}

const opaque = (tag: string) => tag.replace(/^W\//, '');

/** True when an `If-None-Match` header names this tag (weak comparison, as RFC 9110 says). */
export function ifNoneMatchNames(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const wanted = opaque(tag);
  return header.split(',').some((candidate) => opaque(candidate.trim()) === wanted);
}

/** True when the request's `If-None-Match` names this tag. */
export const matchesIfNoneMatch = (request: FastifyRequest, tag: string): boolean =>
  ifNoneMatchNames(request.headers['if-none-match'], tag);

/**
 * Sets the validators of a list answer (revalidate every time) and answers 304 when the client
 * already holds this version. Returns true when the 304 was sent.
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
