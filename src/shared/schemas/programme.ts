import { z } from 'zod';
import { instantOf, lacksOffset } from '../zoned-time.ts';
import { idSchema, singleLineText } from './common.ts';
import { speakerSchema } from './speaker.ts';

/** The programme's limits (decision 210). */
export const PROGRAMME_LIMITS = {
  roomNameMax: 100,
  roomPositionMax: 100_000,
  titleMax: 300,
  abstractMax: 20_000,
  trackMax: 100,
  speakersPerSession: 50,
} as const;

/** A room of the programme, in the order of `position` (then creation). */
export const roomSchema = z.object({
  _id: idSchema,
  name: z.string(),
  position: z.number().int(),
});
export type Room = z.infer<typeof roomSchema>;

/**
 * A session. `startsAt` and `endsAt` are ISO 8601 with the offset of the event's time zone at
 * that instant (`2026-03-14T09:30:00+01:00`); `guid` is the imported schedule's, else null.
 */
export const sessionSchema = z.object({
  _id: idSchema,
  guid: z.string().nullable(),
  title: z.string(),
  abstract: z.string(),
  roomId: idSchema,
  startsAt: z.string(),
  endsAt: z.string(),
  /** In the order the programme lists them (a panel keeps its order). */
  speakerIds: z.array(idSchema),
  track: z.string().nullable(),
  cancelled: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;

/** GET /api/sessions/:id: the session and its speakers, in order. */
export const sessionWithSpeakersSchema = sessionSchema.extend({
  speakers: z.array(speakerSchema),
});
export type SessionWithSpeakers = z.infer<typeof sessionWithSpeakersSchema>;

/**
 * GET /api/schedule: the event's time zone, the rooms in order and the sessions by start; the
 * `version` is the one `scheduleUpdated` carries (a number that only grows).
 */
export const scheduleSchema = z.object({
  timezone: z.string(),
  version: z.number().int(),
  rooms: z.array(roomSchema),
  sessions: z.array(sessionSchema),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** A time as the API takes it: ISO 8601 with an offset or `Z`; one without is refused. */
const instantText = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(40, { error: `${label} must be an ISO 8601 time` })
    .refine((text) => !lacksOffset(text), {
      error: `${label} needs a time zone offset, e.g. 2026-03-14T09:30:00+01:00 or 2026-03-14T08:30:00Z`,
    })
    .refine((text) => lacksOffset(text) || instantOf(text) !== undefined, {
      error: `${label} must be an ISO 8601 time with an offset, e.g. 2026-03-14T09:30:00+01:00`,
    });

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Text that may be empty (an abstract): newlines and tabs allowed, no other control characters. */
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .refine((value) => !CONTROL_CHARS.test(value), {
      error: `${label} contains characters that are not allowed`,
    });

const position = z
  .number({ error: 'position must be a number' })
  .int({ error: 'position must be a whole number' })
  .min(0, { error: 'position must be at least 0' })
  .max(PROGRAMME_LIMITS.roomPositionMax, {
    error: `position must be at most ${PROGRAMME_LIMITS.roomPositionMax}`,
  });

const atLeastOne = { error: 'Send at least one field' };

/** POST /api/admin/rooms: a name, and a position (default: after the last room). */
export const roomCreateSchema = z
  .object({
    name: singleLineText('name', PROGRAMME_LIMITS.roomNameMax),
    position: position.optional(),
  })
  .strict();
export type RoomCreate = z.infer<typeof roomCreateSchema>;

/** PATCH /api/admin/rooms/:id: any of them. */
export const roomUpdateSchema = roomCreateSchema
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, atLeastOne);
export type RoomUpdate = z.infer<typeof roomUpdateSchema>;

const sessionFields = {
  title: singleLineText('title', PROGRAMME_LIMITS.titleMax),
  abstract: optionalText('abstract', PROGRAMME_LIMITS.abstractMax),
  roomId: idSchema,
  startsAt: instantText('startsAt'),
  endsAt: instantText('endsAt'),
  speakerIds: z
    .array(idSchema, { error: 'speakerIds must be a list of speaker ids' })
    .max(PROGRAMME_LIMITS.speakersPerSession, {
      error: `speakerIds may name at most ${PROGRAMME_LIMITS.speakersPerSession} speakers`,
    })
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
      error: 'speakerIds names a speaker twice',
    }),
  track: singleLineText('track', PROGRAMME_LIMITS.trackMax).nullable(),
  cancelled: z.boolean({ error: 'cancelled must be true or false' }),
};

/**
 * POST /api/admin/sessions: the Session's fields but `_id` and `guid` (refused); `abstract`,
 * `speakerIds`, `track` and `cancelled` may be left out.
 */
export const sessionCreateSchema = z
  .object({
    ...sessionFields,
    abstract: sessionFields.abstract.default(''),
    speakerIds: sessionFields.speakerIds.default([]),
    track: sessionFields.track.default(null),
    cancelled: sessionFields.cancelled.default(false),
  })
  .strict();
export type SessionCreate = z.infer<typeof sessionCreateSchema>;

/** PATCH /api/admin/sessions/:id: any of the fields. */
export const sessionUpdateSchema = z
  .object(sessionFields)
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, atLeastOne);
export type SessionUpdate = z.infer<typeof sessionUpdateSchema>;

export const programmeIdParamsSchema = z.object({ id: idSchema });
