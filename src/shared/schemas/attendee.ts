import { z } from 'zod';
import { usernameSchema } from './common.ts';

/** POST /api/attendees: the username an attendee joins with. */
export const attendeeCreateRequestSchema = z.object({ username: usernameSchema });

/** 201: the username and the signed attendee token kept beside it. */
export const attendeeResponseSchema = z.object({ username: z.string(), token: z.string() });
