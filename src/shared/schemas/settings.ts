import { z } from 'zod';
import { pollStatsSchema } from './poll.ts';
import { reactionsSettingSchema } from './reaction.ts';
import { cleanName } from '../names.ts';
import { isTimeZone } from '../zoned-time.ts';
import { LANGUAGES, type Language, SOURCE_LANGUAGE, languageOf } from '../i18n/languages.ts';

const LANGUAGE_ERROR = `must be a language code the app ships: ${LANGUAGES.join(', ')}`;

/** A language the app ships, by its code or a regional one (`pt-BR` is `pt`), as its code. */
const languageCodeSchema = z
  .string({ error: `Each language ${LANGUAGE_ERROR}` })
  .max(35, { error: `Each language ${LANGUAGE_ERROR}` })
  .transform((code, context): Language => {
    const language = languageOf(code);
    if (language) return language;
    context.addIssue({ code: 'custom', message: `"${code}" ${LANGUAGE_ERROR}` });
    return z.NEVER;
  });

/** The languages attendees may choose among (decision 246): at least one, each once. */
export const languagesSettingSchema = z
  .array(languageCodeSchema, { error: 'languages must be a list of language codes' })
  .max(50, { error: 'languages must be a list of language codes' })
  .transform((codes) => [...new Set(codes)])
  .refine((codes) => codes.length > 0, { error: 'languages must keep at least one language' });

/** Every shipped language, in the order the controls list them. */
export const DEFAULT_LANGUAGES: Language[] = [...LANGUAGES];
export const DEFAULT_LANGUAGE: Language = SOURCE_LANGUAGE;

/** The longest privacy notice, in characters. */
export const PRIVACY_NOTICE_MAX = 5000;

/** The most blocked words a list holds, and the longest one, in characters (decision 235). */
export const BLOCKED_WORDS_LIMITS = { words: 1000, length: 50 } as const;
/** What a blocked word does to what it is in (decision 236): hold for the admin, refuse, star. */
export const BLOCKED_WORD_ACTIONS = ['hold', 'block', 'mask'] as const;
export type BlockedWordAction = (typeof BLOCKED_WORD_ACTIONS)[number];

/** `*` stands only at the start or the end of a word ("fuck*", "*hole"), never inside one. */
const starsAtEnds = (entry: string) =>
  entry.split(/\s+/u).every((word) => !word.replace(/^\*|\*$/gu, '').includes('*'));

/** The blocked words and their action; blank entries and repeats are dropped. */
export const blockedWordsSchema = z.object({
  words: z
    .array(
      z
        .string({ error: 'Each blocked word must be text' })
        .trim()
        .max(BLOCKED_WORDS_LIMITS.length, {
          error: `A blocked word is at most ${BLOCKED_WORDS_LIMITS.length} characters`,
        })
        .refine((entry) => entry === '' || /[\p{L}\p{N}]/u.test(entry), {
          error: 'A blocked word needs a letter besides * and punctuation',
        })
        .refine(starsAtEnds, { error: 'A * stands only at the start or the end of a word' }),
      { error: 'blockedWords.words must be a list of words' },
    )
    .max(BLOCKED_WORDS_LIMITS.words, {
      error: `The blocked words are at most ${BLOCKED_WORDS_LIMITS.words}`,
    })
    .overwrite((words) => [...new Set(words.filter((word) => word !== ''))]),
  action: z.enum(BLOCKED_WORD_ACTIONS, {
    error: 'blockedWords.action must be hold, block or mask',
  }),
});

/** The admin's settings (GET and PUT /api/admin/settings), with their bounds. */
export const settingsSchema = z.object({
  moderateQuestions: z.boolean(),
  moderateMemories: z.boolean(),
  /** Attendees may ask without their name shown (decision 233). */
  allowAnonymousQuestions: z.boolean({ error: 'allowAnonymousQuestions must be true or false' }),
  /** Shown on every screen: cleaned as every name is (decision 194). */
  eventName: z
    .string()
    .overwrite(cleanName)
    .trim()
    .min(1, { error: 'eventName is required' })
    .max(60, { error: 'eventName must be at most 60 characters' }),
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
  /** The event's time zone, an IANA name: the programme's times carry its offset (decision 210). */
  timezone: z.string({ error: 'timezone must be a time zone name' }).trim().refine(isTimeZone, {
    error: 'timezone must be a time zone name such as Europe/Berlin or UTC',
  }),
  /** Distinct people whose reports hide a memory until the admin decides; 0: never (decision 216). */
  reportsToHide: z
    .number({ error: 'reportsToHide must be a number' })
    .int({ error: 'reportsToHide must be a whole number' })
    .min(0, { error: 'reportsToHide must be at least 0' })
    .max(1000, { error: 'reportsToHide must be at most 1000' }),
  /** Days attendees' data is kept after the programme's last session (decision 217); null: no period. */
  retentionDays: z
    .number({ error: 'retentionDays must be a number of days or null' })
    .int({ error: 'retentionDays must be a whole number' })
    .min(1, { error: 'retentionDays must be at least 1' })
    .max(3650, { error: 'retentionDays must be at most 3650' })
    .nullable(),
  /** The last day attendees' data is kept (`YYYY-MM-DD`, UTC); wins over `retentionDays`. */
  retentionUntil: z.iso
    .date({ error: 'retentionUntil must be a date like 2027-03-12, or null' })
    .refine((day) => day >= '2000-01-01' && day <= '2100-12-31', {
      error: 'retentionUntil must be a date between 2000 and 2100',
    })
    .nullable(),
  /** The organiser's privacy notice: plain text (no HTML), shown with its line breaks. */
  privacyNotice: z
    .string({ error: 'privacyNotice must be text' })
    .overwrite((text) =>
      // One kind of line break; other control characters print nothing and go.
      // eslint-disable-next-line no-control-regex -- removing them is the point
      text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ''),
    )
    .trim()
    .max(PRIVACY_NOTICE_MAX, {
      error: `privacyNotice must be at most ${PRIVACY_NOTICE_MAX} characters`,
    }),
  /** The emoji attendees react with during a talk, in order; empty: reactions are off (decision 237). */
  reactions: reactionsSettingSchema,
  /** Words refused, held or starred in what attendees and speakers write (decisions 235, 236). */
  blockedWords: blockedWordsSchema,
  /** The languages attendees may choose (decision 246); every shipped one by default. */
  languages: languagesSettingSchema,
  /** The language of big screens and of attendees whose browser asks for none offered. */
  defaultLanguage: languageCodeSchema.pipe(z.enum(LANGUAGES)),
});
export type Settings = z.infer<typeof settingsSchema>;

/** The settings as a whole: the default language is one of those offered. */
export const settingsWholeSchema = settingsSchema.refine(
  (settings) => settings.languages.includes(settings.defaultLanguage),
  { error: 'defaultLanguage must be one of languages', path: ['defaultLanguage'] },
);

/** PUT /api/admin/settings: any of the settings; anything else is refused. */
export const settingsUpdateSchema = settingsSchema
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, { error: 'Send at least one setting' });
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** GET and PUT /api/admin/settings answer the settings and the event's logo, if any. */
export const settingsResponseSchema = settingsSchema.extend({
  // As stored: codes the app ships (what a request may name is read by `languageCodeSchema`).
  languages: z.array(z.enum(LANGUAGES)),
  defaultLanguage: z.enum(LANGUAGES),
  /** The event's logo (PUT /api/admin/settings/logo); null: the app's own. */
  logoUrl: z.string().nullable(),
  /** When attendees' data will be removed (ISO time), by the rule of decision 217; null: never by itself. */
  retentionEndsAt: z.string().nullable(),
});
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

/**
 * The public part of the settings: what every screen shows (name, colour, logo) and the wall's
 * pace. In GET /api/config, and sent to every open page as `settingsUpdated` when it changes.
 */
export const publicSettingsSchema = z.object({
  eventName: z.string(),
  /** The admin's accent colour (`#rrggbb`). */
  primaryColor: z.string().regex(/^#[0-9a-f]{6}$/i),
  /** The event's logo; null: the app's own. */
  logoUrl: z.string().nullable(),
  wallIntervalSeconds: z.number(),
  /** The event's time zone (an IANA name). */
  timezone: z.string(),
  /** The organiser's privacy notice (plain text; empty: none written). */
  privacyNotice: z.string(),
  /** The last day attendees' data is kept (`YYYY-MM-DD`); null: until the organiser deletes it. */
  dataKeptUntil: z.string().nullable(),
  /** The emoji attendees react with; empty: reactions are off. */
  reactions: z.array(z.string()),
  /** The ask dialog offers "Ask anonymously" (decision 233). */
  allowAnonymousQuestions: z.boolean(),
  /** The languages attendees may choose, by code (decision 246). */
  languages: z.array(z.enum(LANGUAGES)),
  /** The language of big screens, and of attendees whose browser asks for none offered. */
  defaultLanguage: z.enum(LANGUAGES),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/** GET /api/admin/stats: figures for the organiser's overview. */
export const adminStatsSchema = z.object({
  memories: z.number(),
  questions: z.number(),
  pendingQuestions: z.number(),
  speakers: z.number(),
  /** Attendees who joined (took a name in the app). */
  attendees: z.number(),
  votes: z.number(),
  /** Every speaker, most questions first: their questions (every status) and the votes on them. */
  perSpeaker: z.array(
    z.object({
      speakerId: z.string(),
      name: z.string(),
      questions: z.number(),
      votes: z.number(),
    }),
  ),
  /** Memories posted per hour (UTC, `YYYY-MM-DDTHH:00:00.000Z`), oldest first, hours with none left out. */
  memoriesPerHour: z.array(z.object({ hour: z.string(), memories: z.number() })),
  /** Voters per poll and distinct voters per session's polls. */
  polls: pollStatsSchema,
});
export type AdminStats = z.infer<typeof adminStatsSchema>;
