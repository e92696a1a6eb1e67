import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

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
 * Fastify gives every request a child logger bound to its id. Most requests (the polls) never
 * log, so the child is made on first use instead of on every request; the methods live on one
 * prototype, so a request that never logs costs one small object.
 */
export const lazyChildLoggerFactory: ChildLoggerFactory = (logger, bindings, options) =>
  new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
