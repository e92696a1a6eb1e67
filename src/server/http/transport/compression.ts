import { promisify } from 'node:util';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Below this, compressing costs more than the bytes it saves (about one TCP packet). */
export const COMPRESSION_THRESHOLD = 1024;

/** The text types compressed on the fly: JSON, HTML, CSS, JavaScript, SVG and other text. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml)|image\/svg\+xml)|\+(json|xml)\b/;

const isCompressible = (reply: FastifyReply): boolean =>
  COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''));

/** Adds `accept-encoding` to the answer's `Vary`, once. */
export function varyOnAcceptEncoding(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) return;
  reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
}

/**
 * Compresses dynamic text answers (JSON, the page) with brotli or gzip, as the request accepts,
 * above COMPRESSION_THRESHOLD bytes. Built files come precompressed from the build (see
 * `client-app.ts`) and media are never compressed (binary, served in ranges). Every text answer
 * and every 304 says `Vary: Accept-Encoding`, compressed or not, so a cache never hands one
 * encoding to a client that asked for another; ETags stay weak (one version, several encodings).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    // Request bodies stay as sent: nothing here accepts a compressed upload.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
    customTypes: COMPRESSIBLE,
  });
  // A 304 names the same Vary as the 200 it stands for (RFC 9110 §15.4.5).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === 304 || isCompressible(reply)) varyOnAcceptEncoding(reply);
    done(null, payload);
  });
}

export type Encoding = 'br' | 'gzip';

/**
 * Brotli when the header takes it, else gzip, else nothing (a `q=0` refuses an encoding); read
 * once per header through `AnswerMemo.acceptedEncoding`.
 */
export function readAcceptEncoding(header: string): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const takes = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : undefined;
}

/**
 * How hard to compress: `answer` for one answer (the plugin's fast settings), `version` for a
 * polled list made once per version and sent many times, `forever` for a text that never
 * changes (the built page).
 */
type Effort = 'answer' | 'version' | 'forever';

const BROTLI_QUALITY: Record<Effort, number> = {
  answer: 4,
  version: 5,
  forever: zlib.constants.BROTLI_MAX_QUALITY,
};
const GZIP_LEVEL: Record<Effort, number> = { answer: 6, version: 6, forever: 9 };

const brotliOptions = (body: Buffer, effort: Effort): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
});

function compressText(body: Buffer, encoding: Encoding, effort: Effort): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(body, { level: GZIP_LEVEL[effort] });
  return zlib.brotliCompressSync(body, brotliOptions(body, effort));
}

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

/** The same, off the event loop (zlib's thread pool): for an answer made once per version. */
export function compressTextAsync(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'gzip'
    ? gzipAsync(body, { level: GZIP_LEVEL.version })
    : brotliAsync(body, brotliOptions(body, 'version'));
}

/**
 * A text answer outside @fastify/compress's reach (the not-found handler serves the pages),
 * compressed as the request accepts. `keep`: each encoding is kept once made, at the best
 * setting for a text that does not change (`forever`, the built page), or at a quick one for a
 * text that changes with the data (`version`, a page with the gallery's first pictures named in
 * it), which is made on the event loop at the first request of each version.
 */
export class CompressedText {
  private readonly body: Buffer;
  private readonly encoded = new Map<Encoding, Buffer>();
  private readonly effort: Effort;

  constructor(text: string, options: { keep: false | 'forever' | 'version' }) {
    this.body = Buffer.from(text);
    this.effort = options.keep || 'answer';
  }

  /** Sends the text with the headers already set, in the encoding the request accepts. */
  send(reply: FastifyReply, encoding: Encoding | undefined): FastifyReply {
    varyOnAcceptEncoding(reply);
    if (!encoding || this.body.length < COMPRESSION_THRESHOLD) return reply.send(this.body);
    let encoded = this.encoded.get(encoding);
    if (!encoded) {
      encoded = compressText(this.body, encoding, this.effort);
      if (this.effort !== 'answer') this.encoded.set(encoding, encoded);
    }
    return reply.header('content-encoding', encoding).send(encoded);
  }
}
