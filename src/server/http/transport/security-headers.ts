import { IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { malformed, rawErrorAnswer, sendError } from '../errors.ts';

/** Helmet's settings for Confab: a CSP that needs no inline script, no framing, no sniffing. */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine sets CSS variables in style attributes and one style element; no script is inline.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets for these options. Nothing in them depends on the request (no nonces),
 * so helmet runs once, at start, and every answer gets the result in one call: on the hottest
 * path of the app (a 304 poll) this saves a dozen middleware calls per request.
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      // The X-Powered-By header is never set by Fastify; nothing to remove.
      Reflect.deleteProperty(headers, name.toLowerCase());
    },
  } as unknown as ServerResponse;
  let failure: unknown;
  helmet(options)(new IncomingMessage(new Socket()), response, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error('helmet failed');
  return headers;
}

/**
 * Sends helmet's security headers with every answer, errors and 404s included, where the route
 * has not set its own, but a 304: that
 * stands for the answer the client already holds, whose headers it keeps (RFC 9110 §15.4.5 asks
 * a 304 for the validators and caching headers only). A 304 poll is the app's most frequent
 * answer, and a dozen headers are most of its bytes and of the time it takes to send.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  headers: Readonly<Record<string, string>> = helmetHeaders(),
): void {
  const entries = Object.entries(headers);
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode !== 304) {
      // A route may have set a stricter one of its own (media: a sandboxed CSP).
      for (const [name, value] of entries) if (!reply.hasHeader(name)) reply.header(name, value);
    }
    done(null, payload);
  });
}

/**
 * Headers for answers made outside the normal request cycle (a malformed URL, socket.io's own
 * HTTP answers): they carry no page, so the strictest policy fits.
 */
export const BASELINE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (`/api/%zz`) or a too-long path
 * parameter is answered before any hook runs, so it gets the security headers here.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.headers(BASELINE_SECURITY_HEADERS);
  void sendError(reply, malformed(error.statusCode === 414 ? 'urlTooLong' : 'url'));
}

/** Node's parser's refusals, by its error code; anything else is a malformed request. */
const CLIENT_ERRORS: Record<string, 'timeout' | 'headersTooLarge'> = {
  ERR_HTTP_REQUEST_TIMEOUT: 'timeout',
  HPE_HEADER_OVERFLOW: 'headersTooLarge',
};

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (garbage, a bad header,
 * headers too large, too slow) is answered with the usual shape and the security headers.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const refusal = malformed(CLIENT_ERRORS[error.code ?? ''] ?? 'request');
    socket.write(rawErrorAnswer(refusal, BASELINE_SECURITY_HEADERS));
  }
  socket.destroy(error);
}
