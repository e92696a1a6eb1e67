import fp from 'fastify-plugin';
import { registerCompression } from '../http/transport/compression.ts';
import { registerIdleTimeout } from '../http/transport/connection-limits.ts';
import { registerCrossOriginGuard } from '../http/transport/cross-origin.ts';
import { registerLoadShedding } from '../http/transport/load-shedding.ts';
import { registerMultipart } from '../http/transport/multipart.ts';
import { registerOpenApi } from '../http/api-docs/openapi.ts';
import { registerRateLimits } from '../http/transport/rate-limits.ts';
import { registerRequestGuards } from '../http/transport/request-guards.ts';
import { helmetHeaders, registerSecurityHeaders } from '../http/transport/security-headers.ts';

/**
 * What every request goes through, in this order: security headers, load shedding, the
 * cross-origin guard, request guards, the idle timeout, rate limits, compression, multipart
 * bodies; and the OpenAPI document, registered before the routes: it collects their schemas
 * as they are added.
 */
export const httpPlugin = fp(
  async (app) => {
    const { config, clock } = app;
    registerSecurityHeaders(app, helmetHeaders());
    registerLoadShedding(app, config.maxEventLoopDelayMs);
    registerCrossOriginGuard(app, config.corsOrigins);
    registerRequestGuards(app);
    registerIdleTimeout(app, config.idleTimeoutMs, app.connections);
    registerRateLimits(app, {
      clock,
      behindProxy: config.trustProxy !== 0,
      anonymousPerAddress: config.pageRateLimitPerAddress,
    });
    await registerCompression(app);
    registerMultipart(app);
    await registerOpenApi(app);
  },
  { name: 'http', dependencies: ['config', 'connections'] },
);
