import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  type ZodTypeProvider,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { createAdminAuth } from './admin/admin-auth.ts';
import { PartyTokenSigner } from './admin/admin-token.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { attendeeRoutes } from './attendees/attendee.routes.ts';
import { JoinProofs } from './attendees/join-proof.ts';
import { ATTENDEE, createCallers, moderationRoomOf } from './auth/callers.ts';
import { SettingsStore, tokenSecret } from './settings/settings.service.ts';
import { type Config, longestUploadMs } from './config.ts';
import { createPgPool, listenConnections, migrateToLatest, openDatabase } from './db/connect.ts';
import type { AppDeps } from './deps.ts';
import { registerClientApp } from './http/pages/client-app.ts';
import { readListAnswer } from './lists/list-route.ts';
import { registerCompression } from './http/transport/compression.ts';
import {
  defaultMaxConnections,
  limitConnections,
  registerCloseOnShutdown,
  registerIdleTimeout,
} from './http/transport/connection-limits.ts';
import { registerCrossOriginGuard } from './http/transport/cross-origin.ts';
import { registerLoadShedding } from './http/transport/load-shedding.ts';
import { registerRateLimits } from './http/transport/rate-limits.ts';
import { registerRequestGuards } from './http/transport/request-guards.ts';
import { registerErrorHandling } from './http/errors.ts';
import {
  createAppLogger,
  lazyChildLoggerOf,
  logWrites,
  writeLogController,
} from './http/transport/app-logger.ts';
import { registerMultipart } from './http/transport/multipart.ts';
import { openApiRoutes, registerOpenApi } from './http/api-docs/openapi.ts';
import { apiDocsRoutes } from './http/api-docs/api-docs.ts';
import {
  answerClientError,
  answerFrameworkError,
  helmetHeaders,
  registerSecurityHeaders,
} from './http/transport/security-headers.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { DiskMediaStore } from './media/disk-media-store.ts';
import { createImagePipeline } from './media/image-pipeline.ts';
import { createVideoPipeline } from './media/video-pipeline.ts';
import type { MediaStore } from './media/media-store.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { ListCache } from './lists/list-cache.ts';
import { questionsFilterOf } from './lists/question-scopes.ts';
import { memoriesVersion } from './memories/memory.repository.ts';
import { galleryPageImages, memoryPageHead, memoryRoutes } from './memories/memory.routes.ts';
import { startOrphanSweeper } from './memories/orphan-media.ts';
import { DataDirProcesses } from './lib/data-dir-processes.ts';
import { stripStoredVideos } from './memories/video-metadata-sweep.ts';
import { startVideoRenditions } from './memories/video-renditions.ts';
import { questionsVersion } from './questions/question.repository.ts';
import { questionRoutes } from './questions/question.routes.ts';
import { localChangeFeed, postgresChangeFeed } from './realtime/change-feed.ts';
import { type FanOut, createRealtime } from './realtime/realtime.ts';
import { speakersVersion } from './speakers/speaker.repository.ts';
import { speakerRoutes } from './speakers/speaker.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { uploadRoutes } from './uploads/upload.routes.ts';
import { webManifestRoutes } from './http/pages/web-manifest.ts';
import { publicBranding } from './settings/branding.ts';
import { openResumableStore, startAbandonedUploadSweeper } from './uploads/upload.service.ts';

/** The media store chosen by the config. */
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
  return new DiskMediaStore(path.join(config.dataDir, 'media'));
}

/** Fastify's trust test for the configured proxies: the first `hops`, or those addresses. */
const trustedProxies = (trust: number | string[]) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;

export interface BuildOptions {
  clock?: Clock;
}

export type App = FastifyInstance & { deps: AppDeps };

/**
 * Builds a complete app from a config object: database (migrated), media store, realtime,
 * routes and the client. No module-level state, so tests start as many as they need.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  // The app's own logger, not Fastify's: given one, Fastify sets up the end of every request
  // for logging, response listeners and clock reads included (decision 188).
  const log = createAppLogger(config.logLevel);
  const app = Fastify({
    logger: false,
    // Exactly the hops configured (decision 127): `true` trusts one, the proxy in front, so the
    // address is the one that proxy saw, not whatever a client wrote in X-Forwarded-For.
    ...(config.trustProxy === 0 ? {} : { trustProxy: trustedProxies(config.trustProxy) }),
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    // Slow clients (decision 128): headers must arrive within HEADERS_TIMEOUT, the whole request
    // (one upload's ceiling) within REQUEST_TIMEOUT, checked every few seconds; a connection
    // silent for IDLE_TIMEOUT (a body that stopped arriving) is closed by the idle sweep
    // (`registerIdleTimeout`, decision 186), not by a socket timer.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(5_000, config.headersTimeoutMs),
    },
    // Thousands of attendees poll every few seconds: reads are not logged one by one; writes
    // are, and failures go through the error handler's log.
    logController: writeLogController(),
    childLoggerFactory: lazyChildLoggerOf(log),
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  app.log = log;
  logWrites(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  const connections = limitConnections(
    app.server,
    config.maxConnections ?? defaultMaxConnections(),
  );
  // Its preClose hook runs first: socket.io's close waits for the HTTP server to close.
  registerCloseOnShutdown(app);

  // Connections the database ends (a restart, a failover) are logged, never fatal.
  const onConnectionError = (error: unknown) =>
    app.log.warn({ err: error }, 'database connection lost');
  const database = openDatabase(config, onConnectionError);
  app.addHook('onClose', async () => {
    await database.close();
  });
  await migrateToLatest(database);

  const media = await openMediaStore(config, app);
  const clock = options.clock ?? systemClock;
  // What an upload stored or staged before its process died, ahead of its row (decision 081),
  // swept at start and periodically, and only what is provably orphaned (decision 126): another
  // process on this data directory (a rolling deploy) may have uploads in flight.
  const processes = await DataDirProcesses.register(config.dataDir);
  app.addHook('onClose', () => processes.close());
  const stagingDir = path.join(config.dataDir, 'uploads');
  await fs.promises.mkdir(stagingDir, { recursive: true });
  const orphans = startOrphanSweeper(
    { db: database.db, media },
    {
      longestUploadMs: longestUploadMs(config),
      intervalMs: config.orphanSweepIntervalMs,
      processes,
      storeIsLocal: media instanceof DiskMediaStore,
      temporaryDirs: [stagingDir, ...(media instanceof DiskMediaStore ? [media.temporaryDir] : [])],
      now: () => clock.now().getTime(),
      log: app.log,
    },
  );
  app.addHook('onClose', () => orphans.stop());
  await orphans.sweep();
  // Resumable uploads (decision 166): their own store, and a sweep of the abandoned ones.
  const resumable = await openResumableStore(config);
  const abandoned = startAbandonedUploadSweeper({ db: database.db }, resumable, {
    intervalMs: config.orphanSweepIntervalMs,
    now: () => clock.now().getTime(),
    log: app.log,
  });
  app.addHook('onClose', () => abandoned.stop());
  await abandoned.sweep();

  // With PostgreSQL, socket events fan out to every instance through LISTEN/NOTIFY on a small
  // pool of its own (a LISTEN connection must not take a slot of the query pool).
  // The two LISTEN connections (socket.io's adapter, the change feed) are their own and come
  // back by themselves when the database drops them.
  let fanOut: FanOut | undefined;
  if (config.databaseUrl) {
    // One connection: NOTIFYs go out in the order they were sent, and socket.io delivers a
    // broadcast to this instance's own clients only once its NOTIFY is out, so events keep their
    // order here too.
    const pool = createPgPool(config, 1, onConnectionError);
    const connections = listenConnections(config, onConnectionError);
    fanOut = { pool, connections, channelPrefix: `confab_${config.databaseSchema ?? 'public'}` };
    app.addHook('onClose', async () => {
      await connections.close();
      await pool.end();
    });
  }
  // Who calls: the admin's login and token, attendee and speaker tokens (decision 111).
  const secret = await tokenSecret(database.db, config);
  const callers = createCallers({
    db: database.db,
    clock,
    admin: createAdminAuth({ config, clock }, app.log),
    tokens: new PartyTokenSigner(secret),
  });
  // Joins past the free ones of an address cost a proof of work (decision 198).
  const joinProofs = new JoinProofs(config.joinProof, clock, secret);
  const realtime = await createRealtime(app.server, app.log, fanOut, moderationRoomOf(callers));
  app.addHook('preClose', async () => {
    await realtime.close();
  });
  const changes = fanOut
    ? await postgresChangeFeed(
        fanOut.pool,
        fanOut.connections,
        `confab_changes_${config.databaseSchema ?? 'public'}`,
        onConnectionError,
      )
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
    const videos = await stripStoredVideos({ db: database.db, media }, { stagingDir });
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

  const images = createImagePipeline({
    maxWaitMs: config.maxImageQueueWaitMs,
    // What the HEIF decoder prints, as one JSON log line (never plain text on stdout).
    log: (said) => app.log.warn({ decoder: 'libheif', said }, 'HEIF decoder output'),
  });
  // ffmpeg's words go to the app's log at debug, never to stdout.
  const videos = createVideoPipeline({
    images,
    log: ({ stderr, what }) =>
      app.log.debug({ ffmpeg: stderr.slice(-4000), what }, 'ffmpeg failed'),
  });
  // Every video still processing (here or on an instance that stopped) is rendered, once.
  const renditions = startVideoRenditions(
    { db: database.db, media, realtime, lists, clock, videos },
    { stagingDir, log: app.log },
  );
  app.addHook('preClose', () => renditions.stop());
  renditions.scan().catch((error: unknown) => {
    app.log.warn({ err: error }, 'videos still processing could not be looked up');
  });

  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    media,
    images,
    videos,
    renditions,
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
  registerLoadShedding(app, config.maxEventLoopDelayMs);
  registerCrossOriginGuard(app, config.corsOrigins);
  registerRequestGuards(app);
  registerIdleTimeout(app, config.idleTimeoutMs, connections);
  registerRateLimits(app, {
    clock,
    behindProxy: config.trustProxy !== 0,
    anonymousPerAddress: config.pageRateLimitPerAddress,
  });
  await registerCompression(app);
  registerMultipart(app);
  // Before the routes: it collects their schemas as they are added.
  await registerOpenApi(app);

  await app.register(systemRoutes, { deps });
  await app.register(adminRoutes, { deps });
  await app.register(attendeeRoutes, { deps, proofs: joinProofs });
  await app.register(mediaRoutes, { media });
  await app.register(memoryRoutes, { deps });
  await app.register(uploadRoutes, { deps, store: resumable });
  await app.register(speakerRoutes, { deps });
  await app.register(questionRoutes, { deps });
  await app.register(webManifestRoutes, {
    branding: () => publicBranding(settings),
    pageRateLimit: config.pageRateLimit,
  });
  await app.register(openApiRoutes, { pageRateLimit: config.pageRateLimit });
  await app.register(apiDocsRoutes, { pageRateLimit: config.pageRateLimit });
  await registerClientApp(app, config.clientDir, {
    branding: () => settings.publicBranding(),
    pageHead: memoryPageHead(deps),
    pageImages: galleryPageImages(deps),
    pageRateLimit: config.pageRateLimit,
    listAnswer: (url) => readListAnswer(deps.lists, url),
  });

  return app as unknown as App;
}
