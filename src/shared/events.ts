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

export interface ServerToClientEvents {
  newQuestion: (payload: z.infer<typeof newQuestionEventSchema>) => void;
  memoryCreated: (payload: z.infer<typeof memoryCreatedEventSchema>) => void;
  memoryDeleted: (payload: z.infer<typeof memoryDeletedEventSchema>) => void;
  speakerCreated: (payload: z.infer<typeof speakerCreatedEventSchema>) => void;
}

export interface ClientToServerEvents {
  watch: (request: WatchRequest) => void;
  unwatch: (request: WatchRequest) => void;
}

/** Socket.io room names, shared so server and tests agree. */
export const roomFor = (request: WatchRequest): string =>
  request.room === 'speaker' ? `speaker:${request.speakerId}` : 'questions';
