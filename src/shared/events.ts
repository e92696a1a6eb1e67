import { z } from 'zod';
import { idSchema } from './schemas/common.ts';
import { memorySchema } from './schemas/memory.ts';
import { questionSchema } from './schemas/question.ts';
import { speakerSchema } from './schemas/speaker.ts';

/** Socket payloads: typed here, and still parsed on arrival. */
export const newQuestionEventSchema = z.object({ speakerId: idSchema, question: questionSchema });
export const memoryCreatedEventSchema = z.object({ memory: memorySchema });
export const memoryDeletedEventSchema = z.object({ id: idSchema });
export const speakerCreatedEventSchema = z.object({ speaker: speakerSchema });

/** What a client may ask to watch: one speaker's questions, or every question. */
export const watchRequestSchema = z.discriminatedUnion('room', [
  z.object({ room: z.literal('speaker'), speakerId: idSchema }),
  z.object({ room: z.literal('questions') }),
]);
export type WatchRequest = z.infer<typeof watchRequestSchema>;

/** Every event the server sends, with the schema its payload is parsed with on arrival. */
export const serverEventSchemas = {
  newQuestion: newQuestionEventSchema,
  memoryCreated: memoryCreatedEventSchema,
  memoryDeleted: memoryDeletedEventSchema,
  speakerCreated: speakerCreatedEventSchema,
};
export type ServerEvent = keyof typeof serverEventSchemas;
export type ServerEventPayload<E extends ServerEvent> = z.infer<(typeof serverEventSchemas)[E]>;

export type ServerToClientEvents = {
  [E in ServerEvent]: (payload: ServerEventPayload<E>) => void;
};

/**
 * The server's answer to `watch` and `unwatch`, sent once the socket is in (or out of) the room:
 * `false` when the request did not parse and nothing changed.
 */
export type WatchAck = (done: boolean) => void;

export interface ClientToServerEvents {
  watch: (request: WatchRequest, ack: WatchAck) => void;
  unwatch: (request: WatchRequest, ack: WatchAck) => void;
}

/** Socket.io room names, shared so server and tests agree. */
export const roomFor = (request: WatchRequest): string =>
  request.room === 'speaker' ? `speaker:${request.speakerId}` : 'questions';
