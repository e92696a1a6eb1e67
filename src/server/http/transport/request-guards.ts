import type { FastifyInstance } from 'fastify';
import { badRequest, sendError } from '../errors.ts';

/**
 * Refuses a URL carrying a NUL character (`%00`) in its path or query with a 400: no route has
 * a use for it, and PostgreSQL refuses it in text, which would turn the request into a 500.
 * Texts in bodies are checked by their schemas (no control characters).
 */
export function registerRequestGuards(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request and almost always does nothing.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.includes('%00')) {
      done();
      return;
    }
    void sendError(reply, badRequest('nullCharacter'));
  });
}
