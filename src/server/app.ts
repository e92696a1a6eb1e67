import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import {
  type ZodTypeProvider,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { createAdminAuth } from './admin/admin-auth.ts';
import { PartyTokenSigner } from './admin/admin-token.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { attendeeRoutes } from './attendees/attendee.routes.ts';
import { ATTENDEE, createCallers, moderationRoomOf } from './auth/callers.ts';
import { SettingsStore, tokenSecret } from './settings/settings.service.ts';
import type { Config } from './config.ts';
import type pg from 'pg';
import { createPgPool, migrateToLatest, openDatabase } from './db/connect.ts';
import type { AppDeps } from './deps.ts';
import { registerClientApp } from './http/client-app.ts';
import { registerCompression } from './http/compression.ts';
import { registerCrossOriginGuard } from './http/cross-origin.ts';
import { registerLoadShedding } from './http/load-shedding.ts';
import { registerRequestGuards } from './http/request-guards.ts';
import { registerErrorHandling } from './http/errors.ts';
import { lazyChildLoggerFactory } from './http/lazy-child-logger.ts';
import { registerMultipart } from './http/multipart.ts';
import { openApiRoutes, registerOpenApi } from './http/openapi.ts';
import { apiDocsRoutes } from './http/api-docs.ts';
import {
  answerClientError,
  answerFrameworkError,
  helmetHeaders,
  registerSecurityHeaders,
} from './http/security-headers.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { DiskMediaStore } from './media/disk-media-store.ts';
import { createImagePipeline } from './media/image-pipeline.ts';
import type { MediaStore } from './media/media-store.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { ListCache } from './lists/list-cache.ts';
import { questionsFilterOf } from './lists/question-scopes.ts';
import { memoriesVersion } from './memories/memory.repository.ts';
import { galleryPageImages, memoryPageHead, memoryRoutes } from './memories/memory.routes.ts';
import { sweepOrphanMedia } from './memories/orphan-media.ts';
import { stripStoredVideos } from './memories/video-metadata-sweep.ts';
import { questionsVersion } from './questions/question.repository.ts';
import { questionRoutes } from './questions/question.routes.ts';
import { localChangeFeed, postgresChangeFeed } from './realtime/change-feed.ts';
import { createRealtime } from './realtime/realtime.ts';
import { speakersVersion } from './speakers/speaker.repository.ts';
import { speakerRoutes } from './speakers/speaker.routes.ts';
import { systemRoutes } from './system/system.routes.ts';

/** The media store chosen by the config; leftovers of interrupted disk writes are swept. */
async function openMediaStore(config: Config, app: FastifyInstance): Promise<MediaStore> {
  if (config.mediaStore === 's3') {
    // Loaded only when used: the AWS SDK costs tens of MB of memory.
    const { S3MediaStore } = await import('./media/s3-media-store.ts');
    const store = new S3MediaStore(config.s3);
    app.addHook('onClose', () => {
      store.close();
    });
    return store;
  }
  const store = new DiskMediaStore(path.join(config.dataDir, 'media'));
  await store.sweepTemporary();
  return store;
}

export interface BuildOptions {
  clock?: Clock;
}

export type App = FastifyInstance & { deps: AppDeps };

/**
 * Builds a complete app from a config object: database (migrated), media store, realtime,
 * routes and the client. No module-level state, so tests start as many as they need.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    // Thousands of attendees poll every few seconds: reads are not logged one by one; writes
    // are, and failures go through the error handler's log.
    logController: new LogController({
      disableRequestLogging: (request) => request.method === 'GET' || request.method === 'HEAD',
    }),
    childLoggerFactory: lazyChildLoggerFactory,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  const database = openDatabase(config);
  app.addHook('onClose', async () => {
    await database.close();
  });
  await migrateToLatest(database);

  const media = await openMediaStore(config, app);
  const clock = options.clock ?? systemClock;
  // Files an upload stored before the process died, ahead of their rows (decision 081). Alone on
  // its SQLite file this process has no upload in flight yet; instances sharing PostgreSQL
  // may, so there only files older than an hour go.
  // A store that cannot be read now must not keep the app from starting (health says 503).
  try {
    const orphans = await sweepOrphanMedia(
      { db: database.db, media },
      { minAgeMs: config.databaseUrl ? 3_600_000 : 0, now: clock.now().getTime() },
    );
    if (orphans.length > 0) {
      app.log.warn({ count: orphans.length }, 'removed media files that no row names');
    }
  } catch (error) {
    app.log.warn({ err: error }, 'media files without a row could not be swept');
  }

  // With PostgreSQL, socket events fan out to every instance through LISTEN/NOTIFY on a small
  // pool of its own (a LISTEN connection must not take a slot of the query pool).
  let fanOutPool: pg.Pool | undefined;
  if (config.databaseUrl) {
    const pool = createPgPool(config, 4);
    fanOutPool = pool;
    app.addHook('onClose', () => pool.end());
  }
  // Who calls: the admin's login and token, attendee and speaker tokens (decision 111).
  const callers = createCallers({
    db: database.db,
    clock,
    admin: createAdminAuth({ config, clock }, app.log),
    tokens: new PartyTokenSigner(await tokenSecret(database.db, config)),
  });
  const realtime = await createRealtime(
    app.server,
    app.log,
    fanOutPool
      ? { pool: fanOutPool, channelPrefix: `confab_${config.databaseSchema ?? 'public'}` }
      : undefined,
    moderationRoomOf(callers),
  );
  app.addHook('preClose', async () => {
    await realtime.close();
  });
  const changes = fanOutPool
    ? await postgresChangeFeed(fanOutPool, `confab_changes_${config.databaseSchema ?? 'public'}`)
    : localChangeFeed();
  app.addHook('preClose', () => changes.close());
  // Every polled list's version and answers, refreshed by the write paths here and by the
  // change feed from other instances (decision 101).
  const settings = await SettingsStore.open(database.db, changes, config);
  const lists = new ListCache(changes, {
    memories: () => memoriesVersion(database.db),
    speakers: () => speakersVersion(database.db),
    questions: (scope) => questionsVersion(database.db, questionsFilterOf(scope)),
  });
  // Videos stored before uploads blanked their location and camera metadata (decision 095):
  // each is cleaned once, one at a time, under a new key. Like the orphan sweep, a failure is
  // logged and the app starts anyway.
  try {
    const videos = await stripStoredVideos(
      { db: database.db, media },
      { stagingDir: path.join(config.dataDir, 'uploads') },
    );
    if (videos.cleaned.length + videos.unchanged.length > 0) {
      app.log.info(
        { cleaned: videos.cleaned.length, unchanged: videos.unchanged.length },
        'stored videos cleaned of their metadata',
      );
      await lists.changed('memories');
    }
    if (videos.skipped.length > 0) {
      app.log.warn(
        { count: videos.skipped.length, first: videos.skipped.slice(0, 10) },
        'stored videos could not be cleaned of their metadata; tried again at next start',
      );
    }
    if (videos.kept.length > 0) {
      app.log.warn(
        { count: videos.kept.length, first: videos.kept.slice(0, 10) },
        'old files of cleaned videos could not be deleted; the next start removes them',
      );
    }
  } catch (error) {
    app.log.warn({ err: error }, 'stored videos could not be cleaned of their metadata');
  }

  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    media,
    images: createImagePipeline(),
    realtime,
    clock,
    lists,
    settings,
    callers,
  };
  app.decorate('deps', deps);
  // The attendee of a route that reads an attendee token; rate limits key on it.
  app.decorateRequest(ATTENDEE, null);

  registerSecurityHeaders(app, helmetHeaders());
  await registerLoadShedding(app, config.maxEventLoopDelayMs);
  registerCrossOriginGuard(app, config.corsOrigins);
  registerRequestGuards(app);
  await app.register(rateLimit, { global: false });
  await registerCompression(app);
  await registerMultipart(app);
  // Before the routes: it collects their schemas as they are added.
  await registerOpenApi(app);

  await app.register(systemRoutes, { deps });
  await app.register(adminRoutes, { deps });
  await app.register(attendeeRoutes, { deps });
  await app.register(mediaRoutes, { media });
  await app.register(memoryRoutes, { deps });
  await app.register(speakerRoutes, { deps });
  await app.register(questionRoutes, { deps });
  await app.register(openApiRoutes);
  await app.register(apiDocsRoutes);
  await registerClientApp(app, config.clientDir, {
    applicationName: config.eventName,
    pageHead: memoryPageHead(deps),
    pageImages: galleryPageImages(deps),
  });

  return app as unknown as App;
}
