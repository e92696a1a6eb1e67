import { z } from 'zod';

/** The admin's settings (GET and PUT /api/admin/settings), with their bounds. */
export const settingsSchema = z.object({
  moderateQuestions: z.boolean(),
  moderateMemories: z.boolean(),
  eventName: z.string().trim().min(1, { error: 'eventName is required' }).max(60, {
    error: 'eventName must be at most 60 characters',
  }),
  primaryColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'primaryColor must be a colour like #1c7ed6' }),
  wallIntervalSeconds: z
    .number({ error: 'wallIntervalSeconds must be a number' })
    .int({ error: 'wallIntervalSeconds must be a whole number' })
    .min(3, { error: 'wallIntervalSeconds must be at least 3' })
    .max(600, { error: 'wallIntervalSeconds must be at most 600' }),
  questionsPerMinute: z
    .number({ error: 'questionsPerMinute must be a number' })
    .int({ error: 'questionsPerMinute must be a whole number' })
    .min(1, { error: 'questionsPerMinute must be at least 1' })
    .max(600, { error: 'questionsPerMinute must be at most 600' }),
});
export type Settings = z.infer<typeof settingsSchema>;

/** PUT /api/admin/settings: any of the settings; anything else is refused. */
export const settingsUpdateSchema = settingsSchema
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, { error: 'Send at least one setting' });
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** GET /api/admin/stats: counts for the admin's overview. */
export const adminStatsSchema = z.object({
  memories: z.number(),
  questions: z.number(),
  pendingQuestions: z.number(),
  speakers: z.number(),
  attendees: z.number(),
  votes: z.number(),
});
