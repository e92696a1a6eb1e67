import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { CLIENT_ROUTE_PATTERNS } from '../../shared/routes.ts';
import { HttpError } from './errors.ts';

const API_PREFIXES = ['/api/', '/media/', '/socket.io/'];

const isApiPath = (pathname: string) =>
  pathname === '/api' || API_PREFIXES.some((prefix) => pathname.startsWith(prefix));

/**
 * Serves the built client: hashed assets cached for a year, `index.html` revalidated, and the
 * app for every client route (history fallback). Everything else is a JSON 404.
 */
export async function registerClientApp(
  app: FastifyInstance,
  clientDir: string | undefined,
): Promise<void> {
  const indexFile = clientDir ? path.join(clientDir, 'index.html') : undefined;
  const hasClient = indexFile !== undefined && fs.existsSync(indexFile);

  if (hasClient && clientDir) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      serveDotFiles: false,
      setHeaders: (reply, filePath) => {
        const relative = path.relative(clientDir, filePath);
        reply.header(
          'cache-control',
          relative.startsWith(`assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }

  app.setNotFoundHandler(
    { preHandler: app.rateLimit({ max: 300, timeWindow: '1 minute' }) },
    (request, reply) => {
      const pathname = request.url.split('?', 1)[0] ?? '/';
      const isPage =
        hasClient &&
        (request.method === 'GET' || request.method === 'HEAD') &&
        !isApiPath(pathname) &&
        (request.headers.accept ?? '').includes('text/html');
      const isClientRoute = CLIENT_ROUTE_PATTERNS.some((pattern) => pattern.test(pathname));
      if (!isPage && !(hasClient && isClientRoute && request.method === 'GET')) {
        throw new HttpError(404, `Not found: ${request.method} ${pathname}`);
      }
      // Unknown pages still get the app (it shows "Page not found"), with a 404 status.
      return reply.code(isClientRoute ? 200 : 404).sendFile('index.html');
    },
  );
}
