import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent', 'child'] as const;

/**
 * Fastify gives every request a child logger bound to its id. Most requests (the polls) never
 * log, so the child is made on first use instead of on every request.
 */
export const lazyChildLoggerFactory: ChildLoggerFactory = (logger, bindings, options) => {
  let child: FastifyBaseLogger | undefined;
  const real = (): FastifyBaseLogger => (child ??= logger.child(bindings, options));
  const lazy: Record<string, unknown> = {};
  for (const method of METHODS) {
    lazy[method] = (...args: unknown[]) =>
      (real()[method] as (...values: unknown[]) => unknown)(...args);
  }
  Object.defineProperty(lazy, 'level', {
    get: () => real().level,
    set: (value: string) => {
      real().level = value;
    },
  });
  return lazy as unknown as FastifyBaseLogger;
};
