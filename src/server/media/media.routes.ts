import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { DOWNLOAD_NAMES } from '../../shared/constants.ts';
import { API_PATHS } from '../../shared/routes.ts';
import { matchesIfNoneMatch } from '../http/transport/conditional-get.ts';
import { notFound, rangeNotSatisfiable } from '../http/errors.ts';
import type { ByteRange, MediaStore } from './media-store.ts';
import { isValidMediaKey } from './media-store.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

/** The saved name of a download: the spec's memory.png / memory.mp4, else memory.<ext>. */
export function downloadName(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  const type = CONTENT_TYPES[ext] ?? '';
  if (type === 'image/png') return DOWNLOAD_NAMES.image;
  if (type === 'video/mp4') return DOWNLOAD_NAMES.video;
  return `memory.${ext}`;
}

/** A strong ETag of a stored object: its key and size name its bytes, which never change. */
export const mediaTag = (key: string, size: number): string =>
  `"${createHash('sha1').update(key).digest('base64url').slice(0, 22)}-${size.toString(36)}"`;

/** Parses a single `bytes=` range; null when absent, 'invalid' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null; // multi-range or unknown unit: answer the whole object
  const [, startText = '', endText = ''] = match;
  if (startText === '' && endText === '') return 'invalid';
  let start: number;
  let end: number;
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(startText);
    end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  }
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'invalid';
  return { start, end };
}

/** GET/HEAD /media/<key>: bytes that never change, range support, never sniffed as HTML. */
export const mediaRoutes: FastifyPluginAsync<{ media: MediaStore }> = async (app, { media }) => {
  app.get<{ Params: { '*': string }; Querystring: { download?: string } }>(
    `${API_PATHS.mediaPrefix}/*`,
    // Pictures and videos are compressed already, and ranges count the stored bytes.
    { compress: false },
    async (request, reply) => {
      const key = request.params['*'];
      const ext = key.slice(key.lastIndexOf('.') + 1);
      const contentType = CONTENT_TYPES[ext];
      if (!isValidMediaKey(key) || !contentType) throw notFound('media');
      const stored = await media.stat(key);
      if (!stored) throw notFound('media');

      const tag = mediaTag(key, stored.size);
      cacheHeaders
        .media(reply.header('Content-Type', contentType))
        .header('ETag', tag)
        .header('Accept-Ranges', 'bytes')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox")
        .header('Cross-Origin-Resource-Policy', 'same-origin');
      if (request.query.download !== undefined) {
        reply.header('Content-Disposition', `attachment; filename="${downloadName(key)}"`);
      }
      // Asked only while the object is there: a deleted one is a 404 above, never a 304.
      if (matchesIfNoneMatch(request, tag)) return reply.code(304).send();

      const range = parseRange(request.headers.range, stored.size);
      if (range === 'invalid') {
        reply.header('Content-Range', `bytes */${stored.size}`);
        throw rangeNotSatisfiable('range');
      }
      if (range) {
        reply
          .code(206)
          .header('Content-Range', `bytes ${range.start}-${range.end}/${stored.size}`)
          .header('Content-Length', range.end - range.start + 1);
        return reply.send(await media.read(key, range));
      }
      reply.header('Content-Length', stored.size);
      return reply.send(await media.read(key));
    },
  );
};
