import type { Socket } from 'node:net';
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { pino } from 'pino';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];

const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent', 'child'] as const;

/** A request's logger that makes the real child logger the first time it is used. */
class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.real.level;
  }

  set level(value: string) {
    this.real.level = value;
  }
}

// The logging methods, once, on the prototype: each passes its call to the real logger.
for (const method of METHODS) {
  Object.defineProperty(LazyChildLogger.prototype, method, {
    value(this: LazyChildLogger, ...args: unknown[]) {
      return (this.real[method] as (...values: unknown[]) => unknown)(...args);
    },
  });
}

/**
 * The app's logger: pino, with Fastify's own settings (its `req`, `res` and `err` serializers)
 * and the credentials redacted. Fastify itself runs without a logger (decision 188): given one,
 * it sets up the end of every request for logging (response listeners, clock reads), work the
 * polls, thousands a second, never use. This logger is `app.log`, and every request's
 * `request.log` is a child of it made on first use.
 */
export function createAppLogger(level: string): FastifyBaseLogger {
  return pino({
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: request.url,
        version: request.headers['accept-version'],
        host: request.host,
        remoteAddress: request.ip,
        // A request whose connection has already gone has no socket left to name.
        remotePort: (request.raw.socket as Socket | null | undefined)?.remotePort,
      }),
      res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
      err: pino.stdSerializers.err,
    },
  });
}

/**
 * Every request gets a child of `logger` bound to its id, made the first time it logs: most
 * requests (the polls) never do. The methods live on one prototype, so a request that never
 * logs costs one small object.
 */
export const lazyChildLoggerOf =
  (logger: FastifyBaseLogger): ChildLoggerFactory =>
  (_fastifyLogger, bindings, options) =>
    new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * Requests are logged as Fastify logs them ("incoming request", "request completed"), but reads
 * not one by one: thousands of attendees poll every few seconds. A write's completion is logged
 * by an onResponse hook that only write routes get (`logWrites`), so a read sets up no response
 * listener. Failures go through the error handler's log either way.
 */
class WriteLogController extends LogController {
  constructor() {
    super({ disableRequestLogging: (request: { method: string }) => isRead(request.method) });
  }

  override requestCompleted(): void {
    // Logged by the write routes' own onResponse hook.
  }
}

export const writeLogController = (): LogController => new WriteLogController();

/** Gives every write route, registered after this, the hook that logs its completion. */
export function logWrites(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().every(isRead)) return;
    const own = route.onResponse ? [route.onResponse].flat() : [];
    route.onResponse = [
      ...own,
      (_request, reply, done) => {
        reply.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
        done();
      },
    ];
  });
}
