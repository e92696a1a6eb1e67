import type { FastifyPluginAsync } from 'fastify';
import { messagesIn } from '../../../shared/i18n/catalogs.ts';
import { type Language, SOURCE_LANGUAGE, directionOf } from '../../../shared/i18n/languages.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { SHARE_TARGET_PATH, WEB_MANIFEST_PATH } from '../../../shared/pwa.ts';
import { pageRateLimit } from '../transport/rate-limits.ts';
import { cacheHeaders } from '../transport/cache-headers.ts';

/**
 * What the manifest shows of the event: its name and colour, as the admin set them, and the
 * language its own words are written in: the event's default (English when none is given).
 */
interface ManifestBranding {
  eventName: string;
  primaryColor: string;
  defaultLanguage?: Language;
}

/** The most characters a home screen shows under an icon without cutting the name. */
const SHORT_NAME_MAX = 12;

/** Characters as people see them (an emoji, a letter with its accent), never split. */
const characters = (text: string): string[] =>
  Array.from(new Intl.Segmenter().segment(text), ({ segment }) => segment);

/**
 * A short name for a phone's home screen: the event's whole name when it has at most 12
 * characters, else its first word (cut at 12 when that word is longer), so the name under the
 * icon is never a word cut off with an ellipsis ("DevFest Lis…").
 */
const shortName = (name: string): string => {
  const whole = name.trim().replace(/\s+/g, ' ');
  if (characters(whole).length <= SHORT_NAME_MAX) return whole;
  const [first = ''] = whole.split(' ');
  return characters(first).slice(0, SHORT_NAME_MAX).join('');
};

/**
 * The web app manifest, made from the event's settings at each request (a change of name or
 * colour applies without a rebuild): installable (`display: standalone`, icons of 192 and 512 px,
 * a maskable one), and a share target, so photos and videos shared from the phone's gallery open
 * the memory form with them attached (decision 171).
 */
export function webManifest(branding: ManifestBranding) {
  // One manifest for everyone: an installed app's description is in the event's language.
  const language = branding.defaultLanguage ?? SOURCE_LANGUAGE;
  return {
    id: '/',
    name: branding.eventName,
    short_name: shortName(branding.eventName),
    description: messagesIn(language).format('manifest.description'),
    lang: language,
    dir: directionOf(language),
    start_url: CLIENT_PATHS.home,
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: branding.primaryColor,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    share_target: {
      action: SHARE_TARGET_PATH,
      method: 'POST',
      enctype: 'multipart/form-data',
      params: {
        title: 'title',
        text: 'text',
        files: [{ name: 'files', accept: ['image/*', 'video/*'] }],
      },
    },
  };
}

/**
 * `GET /manifest.webmanifest`, and the share target's address. The service worker answers a
 * share itself (it keeps the files for the form); this route only sees one when no service
 * worker runs yet (the first visit), and opens the form empty rather than failing.
 */
export const webManifestRoutes: FastifyPluginAsync<{
  branding: () => ManifestBranding;
  pageRateLimit: number;
}> = async (app, options) => {
  const limit = pageRateLimit(app, options.pageRateLimit);
  app.get(
    WEB_MANIFEST_PATH,
    { preHandler: limit, schema: { hide: true } },
    async (_request, reply) => {
      cacheHeaders.revalidate(reply.type('application/manifest+json; charset=utf-8'));
      return JSON.stringify(webManifest(options.branding()));
    },
  );
  // The share's body is not read (the multipart parser reads only on demand): without the
  // service worker there is nowhere to keep it, and the connection closes with the answer.
  app.post(
    SHARE_TARGET_PATH,
    { preHandler: limit, schema: { hide: true } },
    async (_request, reply) => {
      return cacheHeaders
        .noStore(reply.code(303))
        .header('connection', 'close')
        .redirect(CLIENT_PATHS.memoryForm, 303);
    },
  );
};
