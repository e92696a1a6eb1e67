import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCEPTED_FORMAT_NAMES,
  ACCEPTED_IMAGE_TYPES,
  ACCEPTED_VIDEO_TYPES,
  POLL_INTERVALS,
  SPEAKERS_STALE_TIME,
  TOAST_AUTO_CLOSE,
} from '../../shared/constants.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  type PublicConfig,
  healthResponseSchema,
  publicConfigSchema,
} from '../../shared/schemas/config.ts';
import type { PublicSettings } from '../../shared/schemas/settings.ts';
import type { AppDeps } from '../deps.ts';
import { matchesIfNoneMatch } from '../http/transport/conditional-get.ts';
import { unavailable } from '../http/errors.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/** Health and public configuration. */
export const systemRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const publicConfig: Omit<PublicConfig, keyof PublicSettings> = {
    maxUploadMb: deps.config.maxUploadMb,
    maxUploadBytes: Math.floor(deps.config.maxUploadMb * 1024 * 1024),
    acceptedTypes: { images: [...ACCEPTED_IMAGE_TYPES], videos: [...ACCEPTED_VIDEO_TYPES] },
    acceptedFormats: [...ACCEPTED_FORMAT_NAMES],
    pollIntervals: { ...POLL_INTERVALS },
    speakersStaleTime: SPEAKERS_STALE_TIME,
    toastAutoClose: TOAST_AUTO_CLOSE,
    publicUrl: deps.config.publicUrl ?? null,
    vapidPublicKey: deps.push.vapidPublicKey,
  };

  app.get(
    API_PATHS.health,
    {
      schema: {
        tags: ['System'],
        summary: 'Check the database and the media store',
        response: { 200: healthResponseSchema },
      },
    },
    async (request, reply) => {
      cacheHeaders.noStore(reply);
      try {
        await deps.database.check();
      } catch (error) {
        request.log.error({ err: error }, 'health: database check failed');
        throw unavailable('database');
      }
      try {
        await deps.media.check();
      } catch (error) {
        request.log.error({ err: error }, 'health: media store check failed');
        throw unavailable('mediaStore');
      }
      return { status: 'ok' as const, checks: { database: 'ok' as const, media: 'ok' as const } };
    },
  );

  app.get(
    API_PATHS.config,
    {
      schema: {
        tags: ['System'],
        summary: 'The public configuration',
        response: { 200: publicConfigSchema, 304: z.null() },
      },
    },
    async (request, reply) => {
      // The admin's public settings, as they are now: revalidated at every use (a 304 while
      // they have not changed), so a changed name or colour is never kept by a cache.
      const { version, ...settings } = deps.settings.publicBranding();
      const etag = `W/"config-${version}"`;
      cacheHeaders.revalidate(reply).header('etag', etag);
      if (matchesIfNoneMatch(request, etag)) return reply.code(304).send(null);
      return { ...publicConfig, ...settings };
    },
  );
};
