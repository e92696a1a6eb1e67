import { z } from 'zod';
import { announcementSchema } from './schemas/announcement.ts';
import { idSchema } from './schemas/common.ts';
import { memorySchema } from './schemas/memory.ts';
import { pollSchema } from './schemas/poll.ts';
import { questionSchema } from './schemas/question.ts';
import { reactionCountsSchema } from './schemas/reaction.ts';
import { reportsChangedEventSchema } from './schemas/report.ts';
import { publicSettingsSchema } from './schemas/settings.ts';
import { speakerSchema } from './schemas/speaker.ts';

/**
 * Socket payloads: typed here, and still parsed on arrival. A question asked of a session's
 * panel has no speaker: `speakerId` null (decision 223).
 */
export const newQuestionEventSchema = z.object({
  speakerId: idSchema.nullable(),
  question: questionSchema,
});
export const memoryCreatedEventSchema = z.object({ memory: memorySchema });
/** A memory changed: approved, or its video's playable rendition is ready. To everyone. */
export const memoryUpdatedEventSchema = z.object({ memory: memorySchema });
export const memoryDeletedEventSchema = z.object({ id: idSchema });
export const speakerCreatedEventSchema = z.object({ speaker: speakerSchema });
export const questionUpdatedEventSchema = z.object({ question: questionSchema });
export const questionDeletedEventSchema = z.object({
  id: idSchema,
  speakerId: idSchema.nullable(),
});
export const speakerDeletedEventSchema = z.object({ id: idSchema });
/**
 * Attendees' data was purged (decision 218): every memory, question and vote is gone. One event
 * however much went; screens read their lists again. To everyone.
 */
export const dataPurgedEventSchema = z.object({});
/** The event's public settings changed (name, colour, logo, the wall's pace): every page. */
export const settingsUpdatedEventSchema = z.object({ settings: publicSettingsSchema });
/** The programme changed (rooms, sessions, an import): fetch GET /api/schedule again. Everyone. */
export const scheduleUpdatedEventSchema = z.object({ version: z.number().int() });

/**
 * A poll changed (state, visibility, results), at most 4 times a second per poll: to the
 * watchers of its session (everyone for an event-wide poll) in its public view, and in its
 * owner's view to the admin's and its speakers' moderation rooms (decision 220).
 */
export const pollUpdatedEventSchema = z.object({ poll: pollSchema });
export const pollDeletedEventSchema = z.object({ id: idSchema, sessionId: idSchema.nullable() });
/**
 * The reactions tapped in a session (null: the whole event) over at most 250 ms, summed per
 * emoji: to the session's watchers, everybody for the event-wide ones (decision 237).
 */
export const reactionsEventSchema = z.object({
  sessionId: idSchema.nullable(),
  counts: reactionCountsSchema,
});

/**
 * The organiser announced something (decision 239): to everyone, or to the watchers of the
 * session it names, or of every session of the room it names.
 */
export const announcementEventSchema = z.object({ announcement: announcementSchema });

/** What a client may ask to watch: one speaker's questions, or every question, or a session. */
export const watchRequestSchema = z.discriminatedUnion('room', [
  z.object({ room: z.literal('speaker'), speakerId: idSchema }),
  z.object({ room: z.literal('questions') }),
  /** One session: its questions (decision 223), its polls (and what else happens in the talk). */
  z.object({ room: z.literal('session'), sessionId: idSchema }),
  /**
   * Every question whatever its status, for the admin (all of them) or a speaker (their own),
   * named by the token: pending ones included. A token that does not check out is refused.
   */
  z.object({ room: z.literal('moderation'), token: z.string().min(1).max(2048) }),
]);
export type WatchRequest = z.infer<typeof watchRequestSchema>;

/**
 * The rooms one socket may watch at once (decision 196): every screen watches two or three; a
 * `watch` beyond it is answered `false` until the socket leaves one.
 */
export const MAX_WATCHED_ROOMS = 32;

/** Every event the server sends, with the schema its payload is parsed with on arrival. */
export const serverEventSchemas = {
  newQuestion: newQuestionEventSchema,
  memoryCreated: memoryCreatedEventSchema,
  memoryUpdated: memoryUpdatedEventSchema,
  memoryDeleted: memoryDeletedEventSchema,
  speakerCreated: speakerCreatedEventSchema,
  questionUpdated: questionUpdatedEventSchema,
  questionDeleted: questionDeletedEventSchema,
  speakerDeleted: speakerDeletedEventSchema,
  settingsUpdated: settingsUpdatedEventSchema,
  scheduleUpdated: scheduleUpdatedEventSchema,
  reportsChanged: reportsChangedEventSchema,
  pollUpdated: pollUpdatedEventSchema,
  pollDeleted: pollDeletedEventSchema,
  reactions: reactionsEventSchema,
  dataPurged: dataPurgedEventSchema,
  announcement: announcementEventSchema,
};
export type ServerEvent = keyof typeof serverEventSchemas;
export type ServerEventPayload<E extends ServerEvent> = z.infer<(typeof serverEventSchemas)[E]>;

export type ServerToClientEvents = {
  [E in ServerEvent]: (payload: ServerEventPayload<E>) => void;
};

/**
 * The server's answer to `watch` and `unwatch`, sent once the socket is in (or out of) the room:
 * `false` when nothing changed because the request did not parse, its token does not check out,
 * or the socket already watches `MAX_WATCHED_ROOMS` rooms.
 */
export type WatchAck = (done: boolean) => void;

export interface ClientToServerEvents {
  watch: (request: WatchRequest, ack: WatchAck) => void;
  unwatch: (request: WatchRequest, ack: WatchAck) => void;
}

/**
 * Socket.io room names of the public rooms, shared so server and tests agree. A moderation
 * request is named by its token (a key for the client; the server names the room it joins).
 */
export const roomFor = (request: WatchRequest): string => {
  if (request.room === 'moderation') return `watch-moderation:${request.token}`;
  if (request.room === 'session') return `session:${request.sessionId}`;
  return request.room === 'speaker' ? `speaker:${request.speakerId}` : 'questions';
};

/** The moderation rooms: every question (the admin), or one speaker's whatever their status. */
export const moderationRoom = (speakerId?: string): string =>
  speakerId ? `moderation:${speakerId}` : 'moderation';
