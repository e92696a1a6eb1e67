import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MAX_UPLOAD_MB } from '../shared/constants.ts';
import { DEFAULT_QUESTIONS_PER_MINUTE } from '../shared/qa-constants.ts';

/** Empty environment variables count as unset. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const DURATION = /^(\d+(?:\.\d+)?)\s*([smhd]?)$/i;
const DURATION_UNIT_MS: Record<string, number> = {
  '': 1_000,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** A duration such as `12h`, `90m`, `3600s`, `1d` or a bare number of seconds, in ms. */
const duration = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(DURATION, { error: 'must be a duration like 12h, 90m or 3600s' })
    .transform((value) => {
      const [, amount = '0', unit = ''] = DURATION.exec(value) ?? [];
      return Math.round(Number(amount) * (DURATION_UNIT_MS[unit.toLowerCase()] ?? 1_000));
    })
    .refine((ms) => ms >= min && ms <= max, {
      error: `must be between ${min / 60_000} minutes and ${max / 86_400_000} days`,
    });

const envSchema = z
  .object({
    PORT: optional(z.coerce.number().int().min(0).max(65_535)).default(3000),
    HOST: optional(z.string().min(1)).default('0.0.0.0'),
    DATA_DIR: optional(z.string().min(1)).default('./data'),
    DATABASE_URL: optional(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' }),
    ),
    DATABASE_SCHEMA: optional(
      z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: 'must be a lower-case SQL identifier' }),
    ),
    DATABASE_POOL_SIZE: optional(z.coerce.number().int().min(1).max(200)).default(10),
    EVENT_NAME: optional(z.string().trim().min(1).max(60)).default('Confab'),
    ADMIN_USERNAME: optional(z.string().trim().min(1).max(60)).default('admin'),
    ADMIN_PASSWORD: optional(z.string().min(8, { error: 'must be at least 8 characters' })),
    SESSION_SECRET: optional(z.string().min(32, { error: 'must be at least 32 characters' })),
    ADMIN_TOKEN_TTL: optional(duration(60_000, 30 * 86_400_000)).default(12 * 3_600_000),
    MAX_UPLOAD_MB: optional(z.coerce.number().positive().max(10_240)).default(
      DEFAULT_MAX_UPLOAD_MB,
    ),
    LOG_LEVEL: optional(
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    ).default('info'),
    TRUST_PROXY: optional(booleanFlag).default(false),
    MEDIA_STORE: optional(z.enum(['disk', 's3'])).default('disk'),
    S3_ENDPOINT: optional(z.url()),
    S3_REGION: optional(z.string().min(1)).default('us-east-1'),
    S3_BUCKET: optional(z.string().min(3).max(63)),
    S3_ACCESS_KEY_ID: optional(z.string().min(1)),
    S3_SECRET_ACCESS_KEY: optional(z.string().min(1)),
    S3_FORCE_PATH_STYLE: optional(booleanFlag).default(false),
    WRITE_RATE_LIMIT: optional(z.coerce.number().int().min(1)).default(60),
    QUESTIONS_PER_MINUTE: optional(z.coerce.number().int().min(1).max(600)).default(
      DEFAULT_QUESTIONS_PER_MINUTE,
    ),
    WRITE_RATE_LIMIT_PER_ADDRESS: optional(z.coerce.number().int().min(1)).default(3000),
    MAX_EVENT_LOOP_DELAY_MS: optional(z.coerce.number().int().min(0).max(60_000)).default(1000),
    CORS_ORIGINS: optional(
      z
        .string()
        .transform((value) =>
          value
            .split(',')
            .map((origin) => origin.trim())
            .filter(Boolean),
        )
        .pipe(
          z.array(
            z.string().regex(/^https?:\/\/[^/?#\s]+\/?$/i, {
              error: 'must be origins like https://app.example.com, comma-separated',
            }),
          ),
        ),
    ).default([]),
  })
  .superRefine((env, ctx) => {
    if (env.MEDIA_STORE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'is required when MEDIA_STORE=s3',
      });
    }
    if (env.DATABASE_URL && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message:
          'is required with DATABASE_URL, so that every instance signs and accepts the same admin tokens',
      });
    }
  });

export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data directory (SQLite file and media). */
  dataDir: string;
  /** PostgreSQL URL; SQLite in `dataDir` when absent. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use instead of the default search path. */
  databaseSchema: string | undefined;
  databasePoolSize: number;
  eventName: string;
  adminUsername: string;
  adminPassword: string | undefined;
  sessionSecret: string | undefined;
  /** How long an admin token is valid, in milliseconds (ADMIN_TOKEN_TTL, default 12 h). */
  adminTokenTtlMs: number;
  maxUploadMb: number;
  logLevel: string;
  trustProxy: boolean;
  /** Where media bytes live: the disk under DATA_DIR/media, or an S3-compatible bucket. */
  mediaStore: 'disk' | 's3';
  s3: {
    endpoint: string | undefined;
    region: string;
    bucket: string;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    forcePathStyle: boolean;
  };
  /** Write limits a minute: per person (address + username) and per address. */
  writeRateLimit: { perClient: number; perAddress: number };
  /** Questions one attendee may ask a minute until the admin's settings say otherwise. */
  questionsPerMinute: number;
  /** Event-loop lag above which requests are shed with 503 + Retry-After; 0 turns it off. */
  maxEventLoopDelayMs: number;
  /** Other sites allowed to call the API from a browser (CORS_ORIGINS); none by default. */
  corsOrigins: string[];
  /** Folder of the built client; the API alone is served when absent. */
  clientDir: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment once; throws a ConfigError listing every problem. */
export function loadConfig(
  env: Record<string, string | undefined>,
  options: { cwd?: string; clientDir?: string } = {},
): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`,
      ),
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(options.cwd ?? process.cwd(), e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    eventName: e.EVENT_NAME,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    sessionSecret: e.SESSION_SECRET,
    adminTokenTtlMs: e.ADMIN_TOKEN_TTL,
    maxUploadMb: e.MAX_UPLOAD_MB,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    mediaStore: e.MEDIA_STORE,
    s3: {
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      bucket: e.S3_BUCKET ?? '',
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    },
    writeRateLimit: { perClient: e.WRITE_RATE_LIMIT, perAddress: e.WRITE_RATE_LIMIT_PER_ADDRESS },
    questionsPerMinute: e.QUESTIONS_PER_MINUTE,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    corsOrigins: e.CORS_ORIGINS.map((origin) => new URL(origin).origin),
    clientDir: options.clientDir,
  };
}
