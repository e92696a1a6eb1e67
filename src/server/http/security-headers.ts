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
