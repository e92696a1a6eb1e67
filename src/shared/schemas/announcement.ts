import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages.ts';
import { idSchema, multiLineText } from './common.ts';

/** The bounds of an announcement and of a device's push subscription (decisions 239, 240). */
export const ANNOUNCEMENT_LIMITS = {
  /** An announcement is read at a glance on a lock screen and a projector: a tweet's length. */
  textMax: 280,
  /** A push service's endpoint: FCM's and Mozilla's are about 200 characters. */
  endpointMax: 1024,
} as const;

/**
 * An announcement of the organiser (decision 239): to everyone (`sessionId` and `roomId` null),
 * to the people in one room, or to those following one session.
 */
export const announcementSchema = z.object({
  _id: idSchema,
  text: z.string(),
  sessionId: idSchema.nullable(),
  roomId: idSchema.nullable(),
  createdAt: z.iso.datetime(),
});
export type Announcement = z.infer<typeof announcementSchema>;

/** GET /api/announcements: today's, in the event's time zone, newest first. */
export const announcementListSchema = z.array(announcementSchema);

/** POST /api/admin/announcements: the text, and at most one of a session or a room. */
export const announcementCreateRequestSchema = z
  .strictObject({
    text: multiLineText('Text', ANNOUNCEMENT_LIMITS.textMax),
    sessionId: idSchema.nullish(),
    roomId: idSchema.nullish(),
  })
  .refine((body) => !(body.sessionId && body.roomId), {
    error: 'Give a session or a room, not both',
  });
export type AnnouncementCreateRequest = z.infer<typeof announcementCreateRequestSchema>;

/** Unpadded base64url, as the browser writes a subscription's keys. */
const base64url = (label: string, length: number) =>
  z
    .string({ error: `${label} is required` })
    .length(length, { error: `${label} has the wrong length` })
    .regex(/^[A-Za-z0-9_-]+$/, { error: `${label} must be base64url` });

/**
 * The browser's `PushSubscription.toJSON()`: the push service's address, and the device's keys,
 * an uncompressed P-256 point (65 bytes) and an authentication secret (16 bytes).
 */
export const pushSubscriptionRequestSchema = z.object({
  endpoint: z
    .string({ error: 'endpoint is required' })
    .max(ANNOUNCEMENT_LIMITS.endpointMax, { error: 'endpoint is too long' })
    .refine((value) => URL.canParse(value), { error: 'endpoint must be a URL' }),
  expirationTime: z.number().nullish(),
  keys: z.object({
    p256dh: base64url('keys.p256dh', 87).refine((value) => value.startsWith('B'), {
      error: 'keys.p256dh must be an uncompressed P-256 key',
    }),
    auth: base64url('keys.auth', 22),
  }),
  /** The language the device shows (decision 246): its notifications' fixed words are in it. */
  language: z
    .enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}` })
    .optional(),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequestSchema>;

/** DELETE /api/push/subscriptions: the subscription (only its endpoint is read). */
export const pushUnsubscribeRequestSchema = z.object({
  endpoint: pushSubscriptionRequestSchema.shape.endpoint,
});

/** What a pushed announcement carries to the service worker: small, shown as it is. */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** The app's page that shows the announcement. */
  url: z.string(),
  announcementId: idSchema,
  /** The language of the title's fixed words, for the notification's `lang`. */
  lang: z.enum(LANGUAGES).optional(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
