import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MAX_UPLOAD_MB } from '../shared/constants.ts';
import { DEFAULT_QUESTIONS_PER_MINUTE } from '../shared/qa-constants.ts';
import { cleanName } from '../shared/names.ts';

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

/** A duration in its largest whole unit, for messages: `30 seconds`, `10 minutes`, `30 days`. */
function describeDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'days'],
    [3_600_000, 'hours'],
    [60_000, 'minutes'],
    [1_000, 'seconds'],
  ];
  const [size, name] = units.find(([size]) => ms % size === 0) ?? [1_000, 'seconds'];
  return `${ms / size} ${name}`;
}

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
      error: `must be between ${describeDuration(min)} and ${describeDuration(max)}`,
    });

/** A comma-separated list: each item trimmed, empty ones dropped, the list checked by `items`. */
const commaList = <T extends z.ZodType<unknown, string[]>>(items: T) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(items);

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
    PUBLIC_URL: optional(
      z.url({ protocol: /^https?$/, error: 'must be the http(s):// address people open' }),
    ),
    // Cleaned as the admin's setting is (decision 194).
    EVENT_NAME: optional(z.string().overwrite(cleanName).trim().min(1).max(60)).default('Confab'),
    ADMIN_USERNAME: optional(z.string().trim().min(1).max(60)).default('admin'),
    ADMIN_PASSWORD: optional(z.string().min(8, { error: 'must be at least 8 characters' })),
    SESSION_SECRET: optional(z.string().min(32, { error: 'must be at least 32 characters' })),
    ADMIN_TOKEN_TTL: optional(duration(60_000, 30 * 86_400_000)).default(12 * 3_600_000),
    MAX_UPLOAD_MB: optional(z.coerce.number().positive().max(10_240)).default(
      DEFAULT_MAX_UPLOAD_MB,
    ),
    UPLOADS_UNFINISHED_PER_ATTENDEE: optional(z.coerce.number().int().min(1).max(100)).default(3),
    UPLOADS_DISK_BUDGET_MB: optional(z.coerce.number().positive().max(1_048_576)),
    LOG_LEVEL: optional(
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    ).default('info'),
    TRUST_PROXY: optional(
      z.union([
        booleanFlag.transform((trusted) => (trusted ? 1 : 0)),
        z.coerce.number().int().min(0).max(10),
        commaList(
          z
            .array(
              z.string().regex(/^[0-9a-f.:]+(\/\d{1,3})?$/i, {
                error: 'must be true, false, a number of proxy hops, or proxy addresses',
              }),
            )
            .min(1),
        ),
      ]),
    ).default(0),
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
    PAGE_RATE_LIMIT: optional(z.coerce.number().int().min(1)).default(300),
    PAGE_RATE_LIMIT_PER_ADDRESS: optional(z.coerce.number().int().min(1)).default(20_000),
    JOIN_PROOF_FREE_PER_MINUTE: optional(z.coerce.number().int().min(0).max(100_000)).default(30),
    JOIN_PROOF_MAX_WORK: optional(z.coerce.number().int().min(1_000).max(1_000_000_000)).default(
      7_500_000,
    ),
    ADMIN_LOGIN_FAILURES_PER_ADDRESS: optional(z.coerce.number().int().min(1)).default(10),
    ADMIN_LOGIN_FAILURE_WINDOW: optional(duration(60_000, 86_400_000)).default(15 * 60_000),
    ADMIN_LOGIN_FREE_FAILURES: optional(z.coerce.number().int().min(0).max(100)).default(5),
    ADMIN_LOGIN_MAX_DELAY: optional(duration(1_000, 3_600_000)).default(60_000),
    REQUEST_TIMEOUT: optional(duration(10_000, 86_400_000)).default(10 * 60_000),
    HEADERS_TIMEOUT: optional(duration(1_000, 600_000)).default(20_000),
    IDLE_TIMEOUT: optional(duration(1_000, 600_000)).default(30_000),
    SHUTDOWN_TIMEOUT: optional(duration(1_000, 3_600_000)).default(30_000),
    MAX_CONNECTIONS: optional(z.coerce.number().int().min(16)),
    ORPHAN_SWEEP_INTERVAL: optional(duration(1_000, 86_400_000)).default(15 * 60_000),
    MAX_IMAGE_QUEUE_WAIT: optional(duration(1_000, 600_000)).default(30_000),
    MAX_EVENT_LOOP_DELAY_MS: optional(z.coerce.number().int().min(0).max(60_000)).default(1000),
    CORS_ORIGINS: optional(
      commaList(
        z.array(
          z.string().regex(/^https?:\/\/[^/?#\s]+\/?$/i, {
            error: 'must be origins like https://app.example.com, comma-separated',
          }),
        ),
      ),
    ).default([]),
    SCHEDULE_ALLOWED_HOSTS: optional(
      commaList(
        z.array(
          z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.:-]+)$/i, {
            error:
              'must be host names or addresses like schedule.internal or 10.0.0.5, comma-separated',
          }),
        ),
      ),
    ).default([]),
    PUSH_ALLOWED_ORIGINS: optional(
      commaList(
        z.array(
          z.string().regex(/^https:\/\/[^/?#\s@]+\/?$/i, {
            error: 'must be https origins like https://push.example.com, comma-separated',
          }),
        ),
      ),
    ).default([]),
    SCHEDULE_REFRESH_MINUTES: optional(z.coerce.number().int().min(0).max(1440)).default(5),
  })
  .superRefine((env, ctx) => {
    if (env.MEDIA_STORE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'is required when MEDIA_STORE=s3',
      });
    }
    if (
      env.UPLOADS_DISK_BUDGET_MB !== undefined &&
      env.UPLOADS_DISK_BUDGET_MB < env.MAX_UPLOAD_MB
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['UPLOADS_DISK_BUDGET_MB'],
        message: 'must be at least MAX_UPLOAD_MB, or no upload of the largest size could start',
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
  /**
   * The address people open (`https://confab.example.com`), for absolute links in link
   * previews; never taken from a request's Host header. Unset: previews carry paths only.
   */
  publicUrl: string | undefined;
  eventName: string;
  adminUsername: string;
  adminPassword: string | undefined;
  sessionSecret: string | undefined;
  /** How long an admin token is valid, in milliseconds (ADMIN_TOKEN_TTL, default 12 h). */
  adminTokenTtlMs: number;
  maxUploadMb: number;
  /**
   * Room for resumable uploads not finished yet (decision 192): how many one attendee may hold
   * at once, and the bytes all of them may reserve together, counted by their declared size.
   */
  unfinishedUploads: { perAttendee: number; budgetBytes: number };
  logLevel: string;
  /**
   * Which proxies in front of the app are trusted to tell the client's address in
   * `X-Forwarded-For`: a number of hops (`true` is one, `false` none), or their addresses.
   */
  trustProxy: number | string[];
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
  /** Page loads (the app's HTML and unknown paths) a minute per connection or client id. */
  pageRateLimit: number;
  /**
   * Page loads a minute from one address whose connection a proxy in front does not name
   * (no `X-Real-Port`): a venue's worth, shared by everyone behind that address.
   */
  pageRateLimitPerAddress: number;
  /**
   * Joins: attendee tokens a minute per address that are free; past them each costs a proof of
   * work, up to `maxWork` PBKDF2-SHA-256 iterations the faster they come (decision 198).
   */
  joinProof: { freePerMinute: number; maxWork: number };
  /**
   * Failed admin logins of browsers without a device cookie: per address (an IPv6 /64),
   * `perAddress` in `windowMs` (a success from that address clears them); per account, the first
   * `freeFailures` cost nothing, then each one doubles the wait before the next attempt, up to
   * `maxDelayMs`. A browser with a valid device cookie: its own `perAddress` in `windowMs` only.
   */
  adminLogin: { perAddress: number; windowMs: number; freeFailures: number; maxDelayMs: number };
  /** Longest a request may take to arrive whole (one upload's ceiling), in ms. */
  requestTimeoutMs: number;
  /** Longest the request line and headers may take to arrive, in ms. */
  headersTimeoutMs: number;
  /** A connection silent this long (a body that stopped arriving) is closed, in ms. */
  idleTimeoutMs: number;
  /** Longest a graceful shutdown waits for requests in flight, in ms. */
  shutdownTimeoutMs: number;
  /** Open connections at most; beyond it a new one is answered 503. Default: below the file limit. */
  maxConnections: number | undefined;
  /** How often stored files no row names (and leftovers of cut-off uploads) are swept, in ms. */
  orphanSweepIntervalMs: number;
  /** Estimated wait in the image queue above which a new upload is answered 503, in ms. */
  maxImageQueueWaitMs: number;
  /** Questions one attendee may ask a minute until the admin's settings say otherwise. */
  questionsPerMinute: number;
  /**
   * Event-loop lag above which, held for a second, requests are shed with 503 + Retry-After;
   * 0 turns it off.
   */
  maxEventLoopDelayMs: number;
  /** Other sites allowed to call the API from a browser (CORS_ORIGINS); none by default. */
  corsOrigins: string[];
  /**
   * Importing a schedule from an address (decision 213): the hosts fetched even though they are
   * on the server's own network (SCHEDULE_ALLOWED_HOSTS), and how often, in minutes, a schedule
   * imported from an address is fetched again while the event runs (0: never).
   */
  schedule: { allowedHosts: string[]; refreshMinutes: number };
  /**
   * Web Push (decision 240): origins a device's subscription may name besides the browsers' push
   * services (PUSH_ALLOWED_ORIGINS), e.g. a self-hosted push service or a test's receiver.
   */
  push: { allowedOrigins: string[] };
  /** Folder of the built client; the API alone is served when absent. */
  clientDir: string | undefined;
}

/** Time an upload may take after it has arrived, being processed, before its row is written. */
const UPLOAD_PROCESSING_ALLOWANCE_MS = 5 * 60_000;

/**
 * The longest a file of an upload can exist before its row: the request's whole time to arrive
 * and then its processing. Anything without a row that is older was abandoned.
 */
export const longestUploadMs = (config: Pick<Config, 'requestTimeoutMs'>): number =>
  config.requestTimeoutMs + UPLOAD_PROCESSING_ALLOWANCE_MS;

/** What unfinished uploads may reserve in all by default, in MB (decision 192). */
const DEFAULT_UPLOADS_DISK_BUDGET_MB = 2048;

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
    publicUrl: e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : undefined,
    eventName: e.EVENT_NAME,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    sessionSecret: e.SESSION_SECRET,
    adminTokenTtlMs: e.ADMIN_TOKEN_TTL,
    maxUploadMb: e.MAX_UPLOAD_MB,
    unfinishedUploads: {
      perAttendee: e.UPLOADS_UNFINISHED_PER_ATTENDEE,
      // 2 GB, or one upload of the largest size when that is more.
      budgetBytes: Math.floor(
        (e.UPLOADS_DISK_BUDGET_MB ?? Math.max(DEFAULT_UPLOADS_DISK_BUDGET_MB, e.MAX_UPLOAD_MB)) *
          1024 *
          1024,
      ),
    },
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
    pageRateLimit: e.PAGE_RATE_LIMIT,
    pageRateLimitPerAddress: e.PAGE_RATE_LIMIT_PER_ADDRESS,
    joinProof: { freePerMinute: e.JOIN_PROOF_FREE_PER_MINUTE, maxWork: e.JOIN_PROOF_MAX_WORK },
    adminLogin: {
      perAddress: e.ADMIN_LOGIN_FAILURES_PER_ADDRESS,
      windowMs: e.ADMIN_LOGIN_FAILURE_WINDOW,
      freeFailures: e.ADMIN_LOGIN_FREE_FAILURES,
      maxDelayMs: e.ADMIN_LOGIN_MAX_DELAY,
    },
    requestTimeoutMs: e.REQUEST_TIMEOUT,
    headersTimeoutMs: e.HEADERS_TIMEOUT,
    idleTimeoutMs: e.IDLE_TIMEOUT,
    maxConnections: e.MAX_CONNECTIONS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT,
    orphanSweepIntervalMs: e.ORPHAN_SWEEP_INTERVAL,
    maxImageQueueWaitMs: e.MAX_IMAGE_QUEUE_WAIT,
    questionsPerMinute: e.QUESTIONS_PER_MINUTE,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    corsOrigins: e.CORS_ORIGINS.map((origin) => new URL(origin).origin),
    schedule: {
      allowedHosts: e.SCHEDULE_ALLOWED_HOSTS.map((host) => host.toLowerCase()),
      refreshMinutes: e.SCHEDULE_REFRESH_MINUTES,
    },
    push: { allowedOrigins: e.PUSH_ALLOWED_ORIGINS.map((origin) => new URL(origin).origin) },
    clientDir: options.clientDir,
  };
}
