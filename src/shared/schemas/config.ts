import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';

/** GET /api/config: what the client needs to know about this server. */
export const publicConfigSchema = z.object({
  eventName: z.string(),
  /** The admin's accent colour (`#rrggbb`). */
  primaryColor: z.string(),
  /** The event's logo; null: the app's own. */
  logoUrl: z.string().nullable(),
  /** Seconds each memory stays on the wall (`/wall`), the admin's setting. */
  wallIntervalSeconds: z.number(),
  /** The event's time zone (an IANA name): the programme's times carry its offset. */
  timezone: z.string(),
  /** The organiser's privacy notice: plain text, shown with its line breaks; empty: none. */
  privacyNotice: z.string(),
  /** The last day attendees' data is kept (`YYYY-MM-DD`, decision 217); null: until deleted. */
  dataKeptUntil: z.string().nullable(),
  /** The emoji attendees react with during a talk, in order; empty: reactions are off. */
  reactions: z.array(z.string()),
  /** Attendees may ask anonymously (decision 233). */
  allowAnonymousQuestions: z.boolean(),
  /** The languages attendees may choose, by code (decision 246). */
  languages: z.array(z.enum(LANGUAGES)),
  /** The language of big screens, and of attendees whose browser asks for none offered. */
  defaultLanguage: z.enum(LANGUAGES),
  /** The address people open (`PUBLIC_URL`), for QR codes shown on a projector; null: unset. */
  publicUrl: z.string().nullable(),
  /** The server's VAPID public key (base64url), for `pushManager.subscribe` (decision 240). */
  vapidPublicKey: z.string(),
  maxUploadMb: z.number(),
  maxUploadBytes: z.number(),
  acceptedTypes: z.object({
    images: z.array(z.string()),
    videos: z.array(z.string()),
  }),
  acceptedFormats: z.array(z.string()),
  pollIntervals: z.object({
    gallery: z.number(),
    adminList: z.number(),
    speakerDropdown: z.number(),
    speakers: z.number(),
    questions: z.number(),
    dashboard: z.number(),
  }),
  speakersStaleTime: z.number(),
  toastAutoClose: z.number(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  checks: z.object({ database: z.literal('ok'), media: z.literal('ok') }),
});
