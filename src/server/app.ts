import Fastify, { type FastifyInstance } from 'fastify';
import {
  type ZodTypeProvider,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { adminRoutes } from './admin/admin.routes.ts';
import { announcementRoutes } from './announcements/announcement.routes.ts';
import { attendeeRoutes } from './attendees/attendee.routes.ts';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { apiDocsRoutes } from './http/api-docs/api-docs.ts';
import {
  createAppLogger,
  lazyChildLoggerOf,
  logWrites,
  writeLogController,
} from './http/transport/app-logger.ts';
import { registerErrorHandling } from './http/errors.ts';
import { openApiRoutes } from './http/api-docs/openapi.ts';
import { answerClientError, answerFrameworkError } from './http/transport/security-headers.ts';
import { webManifestRoutes } from './http/pages/web-manifest.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { memoryRoutes } from './memories/memory.routes.ts';
import { reportRoutes } from './memories/report.routes.ts';
import { answerMemoPlugin } from './plugins/answer-memo.ts';
import { appDepsPlugin } from './plugins/app-deps.ts';
import { callersPlugin } from './plugins/callers.ts';
import { clientAppPlugin } from './plugins/client-app.ts';
import { configPlugin } from './plugins/config.ts';
import { connectionsPlugin } from './plugins/connections.ts';
import { dataDirPlugin } from './plugins/data-dir.ts';
import { databasePlugin } from './plugins/database.ts';
import { eventsPlugin } from './plugins/events.ts';
import { httpPlugin } from './plugins/http.ts';
import { listsPlugin } from './plugins/lists.ts';
import { mediaPipelinesPlugin } from './plugins/media-pipelines.ts';
import { mediaStorePlugin } from './plugins/media-store.ts';
import { pushPlugin } from './plugins/push.ts';
import { realtimePlugin } from './plugins/realtime.ts';
import { resumableUploadsPlugin } from './plugins/resumable-uploads.ts';
import { scheduleRefreshPlugin } from './plugins/schedule-refresh.ts';
import { retentionPlugin } from './plugins/retention.ts';
import { settingsPlugin } from './plugins/settings.ts';
import { videoMetadataSweepPlugin } from './plugins/video-metadata-sweep.ts';
import { videoRenditionsPlugin } from './plugins/video-renditions.ts';
import { pushRoutes } from './push/push.routes.ts';
import { programmeRoutes } from './programme/programme.routes.ts';
import { scheduleImportRoutes } from './programme/schedule-import/schedule-import.routes.ts';
import { pollRoutes } from './polls/poll.routes.ts';
import { questionRoutes } from './questions/question.routes.ts';
import { reactionRoutes } from './reactions/reaction.routes.ts';
import { publicBranding } from './settings/branding.ts';
import { speakerRoutes } from './speakers/speaker.routes.ts';
import { systemRoutes } from './system/system.routes.ts';
import { uploadRoutes } from './uploads/upload.routes.ts';

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
    // The parts' plugins run start-up jobs (migrations, sweeps of a large data directory) as
    // long as they need: no plugin times out.
    pluginTimeout: 0,
  }).withTypeProvider<ZodTypeProvider>();
  app.log = log;
  logWrites(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  // Each part is a plugin that decorates the app with what it opens and closes it again. They
  // are registered one after the other, each awaited: their hooks run in this order (preClose
  // first to last; onClose last to first, so the database closes after everything that uses
  // it), and start-up jobs (migrations, sweeps) finish before the next part starts.
  await app.register(configPlugin, { config, clock: options.clock ?? systemClock });
  await app.register(connectionsPlugin);
  await app.register(databasePlugin);
  await app.register(mediaStorePlugin);
  await app.register(dataDirPlugin);
  await app.register(resumableUploadsPlugin);
  await app.register(eventsPlugin);
  await app.register(callersPlugin);
  await app.register(realtimePlugin);
  await app.register(settingsPlugin);
  await app.register(answerMemoPlugin);
  await app.register(listsPlugin);
  await app.register(videoMetadataSweepPlugin);
  await app.register(mediaPipelinesPlugin);
  await app.register(videoRenditionsPlugin);
  await app.register(pushPlugin);
  await app.register(appDepsPlugin);
  await app.register(scheduleRefreshPlugin);
  await app.register(retentionPlugin);
  await app.register(httpPlugin);

  const { deps } = app;
  await app.register(systemRoutes, { deps });
  await app.register(adminRoutes, { deps, auth: app.adminAuth, uploads: app.resumableUploads });
  await app.register(attendeeRoutes, {
    deps,
    proofs: app.joinProofs,
    uploads: app.resumableUploads,
  });
  await app.register(mediaRoutes, { media: deps.media });
  await app.register(memoryRoutes, { deps });
  await app.register(reportRoutes, { deps });
  await app.register(uploadRoutes, { deps, store: app.resumableUploads });
  await app.register(speakerRoutes, { deps });
  await app.register(questionRoutes, { deps });
  await app.register(programmeRoutes, { deps });
  await app.register(scheduleImportRoutes, { deps });
  await app.register(pollRoutes, { deps });
  await app.register(reactionRoutes, { deps });
  await app.register(announcementRoutes, { deps });
  await app.register(pushRoutes, { deps });
  await app.register(webManifestRoutes, {
    branding: () => ({
      ...publicBranding(deps.settings),
      defaultLanguage: deps.settings.current.defaultLanguage,
    }),
    pageRateLimit: config.pageRateLimit,
  });
  await app.register(openApiRoutes, { pageRateLimit: config.pageRateLimit });
  await app.register(apiDocsRoutes, {
    pageRateLimit: config.pageRateLimit,
    answers: app.answers,
  });
  await app.register(clientAppPlugin);

  return app;
}
