import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Headers for answers made outside the normal request cycle (a malformed URL, socket.io's own
 * HTTP answers): they carry no page, so the strictest policy fits.
 */
export const BASELINE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'SAMEORIGIN',
};

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (`/api/%zz`) or a too-long path
 * parameter is answered before any hook runs, so it gets the usual `{ error, code }` shape and
 * the security headers here.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode === 414 ? 414 : 400;
  void reply
    .code(status)
    .headers({ ...BASELINE_SECURITY_HEADERS, 'cache-control': 'no-store' })
    .type('application/json; charset=utf-8')
    .send({
      error: status === 414 ? 'URL too long' : 'Malformed URL',
      code: 'BAD_REQUEST',
    });
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive'],
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'The request headers are too large',
  ],
};

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (garbage, a bad header,
 * headers too large, too slow) is answered with the usual shape and the security headers.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'Malformed HTTP request',
  ];
  const body = JSON.stringify({ error: message, code: 'BAD_REQUEST' });
  const headers = {
    ...BASELINE_SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    connection: 'close',
  };
  if (socket.writable) {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${status} ${reason}\r\n${lines.join('')}\r\n${body}`);
  }
  socket.destroy(error);
}
