import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../../shared/errors.ts';
import { API_PATHS } from '../../../shared/routes.ts';
import { scheduleImportResultSchema } from '../../../shared/schemas/schedule-import.ts';
import { accessRules, routeOptions } from '../../auth/route-options.ts';
import type { AppDeps } from '../../deps.ts';
import { tooLarge } from '../../http/errors.ts';
import { cacheHeaders } from '../../http/transport/cache-headers.ts';
import { writeRateLimit } from '../../http/transport/rate-limits.ts';
import { SCHEDULE_MAX_BYTES, importUpload } from './schedule-import.service.ts';

const XML_TYPES = ['application/xml', 'text/xml'];

/**
 * The admin imports a pretalx or frab schedule: `schedule.xml`, `schedule.json`, or JSON
 * `{ url }` to fetch one (decisions 212 and 213).
 */
export const scheduleImportRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  const access = accessRules(deps.callers);
  const route = routeOptions('Programme');

  // In this plugin only: bodies arrive as text, up to a large programme's size, and the
  // service reads them (naming the line or field of a problem, which a generic parser does not).
  // (Any other media type is a 415.)
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', ...XML_TYPES],
    { parseAs: 'string', bodyLimit: SCHEDULE_MAX_BYTES },
    (_request, body, done) => {
      done(null, body);
    },
  );

  app.post(
    API_PATHS.adminScheduleImport,
    {
      ...route({
        summary:
          'Import a pretalx or frab schedule: XML, JSON, or JSON `{ url }` to fetch one (the admin)',
        description:
          'Importing again updates sessions by guid and never duplicates; a session gone from the schedule is cancelled when questions or polls hang on it, else deleted.',
        access: access.admin,
        limit: writeRateLimit(app, deps.config.writeRateLimit),
        bodyLimit: SCHEDULE_MAX_BYTES,
        response: { 200: scheduleImportResultSchema, '4xx': errorResponseSchema },
      }),
      // A body announced larger than the limit is refused before it is read.
      preParsing: async (request) => {
        if (Number(request.headers['content-length'] ?? 0) > SCHEDULE_MAX_BYTES) {
          throw tooLarge('schedule', SCHEDULE_MAX_BYTES / 1024 / 1024);
        }
      },
    },
    async (request, reply) => {
      cacheHeaders.noStore(reply);
      const type = (request.headers['content-type'] ?? '').toLowerCase();
      const body = typeof request.body === 'string' ? request.body : '';
      return importUpload(deps, {
        body,
        format: XML_TYPES.some((xml) => type.startsWith(xml)) ? 'xml' : 'json',
      });
    },
  );
};
