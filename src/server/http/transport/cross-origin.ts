import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLIENT_ID_HEADER } from '../../../shared/constants.ts';
import { forbidden, sendError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = `content-type, authorization, ${CLIENT_ID_HEADER}, if-none-match`;

/** The `host[:port]` an Origin header names, or undefined when it is not a web origin. */
function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the request comes from a page of this very server (same host, whatever the scheme). */
const isSameHost = (request: FastifyRequest, origin: string): boolean => {
  const host = originHost(origin);
  return host !== undefined && host.toLowerCase() === request.host.toLowerCase();
};

/**
 * Refuses writes from other sites: a POST/PUT/PATCH/DELETE whose `Origin` is neither this
 * server nor one of `allowedOrigins` gets a 403 JSON answer before any body is read. Browsers
 * always send `Origin` on such requests, so a page elsewhere cannot post on an attendee's
 * behalf. Allowed origins get the CORS headers and a preflight answer; nobody else does.
 */
export function registerCrossOriginGuard(app: FastifyInstance, allowedOrigins: string[]): void {
  const allowed = new Set(allowedOrigins);
  // A callback hook, not an async one: it runs on every request, and most carry no Origin.
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin === undefined) {
      done();
      return;
    }
    if (allowed.has(origin)) {
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-credentials', 'true')
        .header('vary', 'Origin');
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
        void reply
          .code(204)
          .header('access-control-allow-methods', ALLOWED_METHODS)
          .header('access-control-allow-headers', ALLOWED_HEADERS)
          .header('access-control-max-age', '600')
          .send();
        return;
      }
      done();
      return;
    }
    if (SAFE_METHODS.has(request.method) || isSameHost(request, origin)) {
      done();
      return;
    }
    void sendError(reply, forbidden('crossOrigin'));
  });
}
