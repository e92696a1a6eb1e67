import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_PRIMARY_COLOR } from '../../shared/brand-palette.ts';
import {
  type PublicSettings,
  type Settings,
  type SettingsResponse,
  type SettingsUpdate,
  DEFAULT_LANGUAGE,
  DEFAULT_LANGUAGES,
  settingsSchema,
  settingsWholeSchema,
} from '../../shared/schemas/settings.ts';
import { DEFAULT_REACTIONS } from '../../shared/schemas/reaction.ts';
import { lastDayKept, retentionEnd } from '../../shared/retention.ts';
import { badRequest, HttpError, invalid, unsupported } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import type { ImagePipeline, ImagePlan } from '../media/image-pipeline.ts';
import { type Rendition, sniffType } from '../media/images.ts';
import type { MediaStore } from '../media/media-store.ts';
import { mediaUrl } from '../media/media-url.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Events } from '../events/events.ts';
import { type BlockedWords, compileBlockedWords } from '../moderation/blocked-words.ts';
import { DEFAULT_BLOCKED_WORD_LIST } from '../moderation/default-blocked-words.ts';
import { readSetting, settingOnce, writeSetting } from './settings.repository.ts';

const SETTINGS_KEY = 'app';
const TOKEN_SECRET_KEY = 'token-secret';
/** The event's logo: the key of its rendition in the media store. */
const LOGO_KEY = 'logo';
const storedLogoSchema = z.object({ key: z.string().regex(/^settings\/[\w.-]+$/) });

/**
 * What every screen shows of the event (name, colour, logo), the wall's pace, and a version that
 * changes whenever one of them does: pages and answers made from them are cached per version.
 */
export interface PublicBranding extends PublicSettings {
  version: string;
}

/** Settings as the server starts without any stored: the environment's, else the product's. */
export const defaultSettings = (config: Config): Settings => ({
  moderateQuestions: false,
  moderateMemories: false,
  allowAnonymousQuestions: false,
  eventName: config.eventName,
  primaryColor: DEFAULT_PRIMARY_COLOR,
  wallIntervalSeconds: 8,
  questionsPerMinute: config.questionsPerMinute,
  timezone: 'UTC',
  reportsToHide: 3,
  retentionDays: null,
  retentionUntil: null,
  privacyNotice: '',
  reactions: DEFAULT_REACTIONS,
  // Every shipped language's list, held for the admin until the organiser edits it (decision 235).
  blockedWords: { words: [...DEFAULT_BLOCKED_WORD_LIST], action: 'hold' },
  languages: [...DEFAULT_LANGUAGES],
  defaultLanguage: DEFAULT_LANGUAGE,
});

/**
 * The stored settings over the defaults, each kept only while it is valid: a value the rules no
 * longer take (an event name of invisible characters only, stored before decision 194) falls
 * back to its own default, and the others stay as the admin set them.
 */
function storedOver(defaults: Settings, saved: unknown): Settings {
  const stored: Record<string, unknown> =
    typeof saved === 'object' && saved !== null ? { ...saved } : {};
  const settings: Record<string, unknown> = { ...defaults };
  for (const [key, schema] of Object.entries(settingsSchema.shape)) {
    const parsed = schema.safeParse(stored[key]);
    if (parsed.success) settings[key] = parsed.data;
  }
  const whole = settings as Settings;
  // A default language no longer offered gives way to the first one offered.
  if (!whole.languages.includes(whole.defaultLanguage)) {
    whole.defaultLanguage = whole.languages[0] ?? defaults.defaultLanguage;
  }
  return whole;
}

/**
 * The admin's settings, kept in memory (every question asked reads them) and stored as one
 * JSON row. A change here is published (`settingsUpdated`); the other instances read them again
 * when they hear of it.
 */
export class SettingsStore {
  #current: Settings;
  #logoKey: string | null = null;
  /** When the programme's last session ends (ISO time); null: no programme. */
  #programmeEndsAt: string | null = null;
  #public!: PublicBranding;
  /** The blocked words compiled, and the list they were compiled from. */
  #blocked: { list: string; words: BlockedWords } = { list: '', words: compileBlockedWords([]) };
  readonly #db: Db;
  readonly #events: Events;
  readonly #defaults: Settings;

  private constructor(db: Db, events: Events, defaults: Settings) {
    this.#db = db;
    this.#events = events;
    this.#defaults = defaults;
    this.#current = defaults;
    this.#refreshPublic();
  }

  #refreshPublic(): void {
    // The list is compiled once per change of it, not per text it is asked of.
    const list = JSON.stringify(this.#current.blockedWords.words);
    if (list !== this.#blocked.list) {
      this.#blocked = { list, words: compileBlockedWords(this.#current.blockedWords.words) };
    }
    const {
      eventName,
      primaryColor,
      wallIntervalSeconds,
      timezone,
      privacyNotice,
      reactions,
      allowAnonymousQuestions,
      languages,
      defaultLanguage,
    } = this.#current;
    const settings: PublicSettings = {
      eventName,
      primaryColor,
      logoUrl: this.#logoKey ? mediaUrl(this.#logoKey) : null,
      wallIntervalSeconds,
      timezone,
      privacyNotice,
      dataKeptUntil: lastDayKept(this.retentionEnd()),
      reactions,
      allowAnonymousQuestions,
      languages,
      defaultLanguage,
    };
    const version = createHash('sha256')
      .update(JSON.stringify(settings))
      .digest('base64url')
      .slice(0, 16);
    this.#public = { ...settings, version };
  }

  static async open(db: Db, events: Events, config: Config): Promise<SettingsStore> {
    const store = new SettingsStore(db, events, defaultSettings(config));
    await store.reload();
    const reload = () => void store.reload().catch(() => undefined);
    // This instance's own changes are in memory already.
    events.subscribe('caches', {
      on: (event, origin) => {
        if (event.type === 'settingsUpdated' && origin === 'elsewhere') reload();
      },
      missed: reload,
    });
    return store;
  }

  get current(): Settings {
    return this.#current;
  }

  /** The blocked words, compiled, with what they do (decisions 235, 236). */
  get blockedWords(): { words: BlockedWords; action: Settings['blockedWords']['action'] } {
    return { words: this.#blocked.words, action: this.#current.blockedWords.action };
  }

  /**
   * The event's public branding as it is now: name, colour, logo URL (null: the app's own), the
   * wall's pace, and their version. The one source for every page, link preview, the page
   * title and the web app manifest.
   */
  publicBranding(): PublicBranding {
    return this.#public;
  }

  /** The settings and the logo, as the admin sees them, with when attendees' data goes. */
  get withLogo(): SettingsResponse {
    return {
      ...this.#current,
      logoUrl: this.#public.logoUrl,
      retentionEndsAt: this.retentionEnd()?.toISOString() ?? null,
    };
  }

  /** When attendees' data is removed, by the settings and the programme (decision 217). */
  retentionEnd(): Date | null {
    return retentionEnd(this.#current, this.#programmeEndsAt);
  }

  /**
   * The programme's last session ended or moved: the retention end follows. Every instance
   * hears of the programme's change and reads it itself, so nothing is published.
   */
  setProgrammeEnd(endsAt: string | null): void {
    if (endsAt === this.#programmeEndsAt) return;
    this.#programmeEndsAt = endsAt;
    this.#refreshPublic();
  }

  /** The media key of the logo in use, if any. */
  get logoKey(): string | null {
    return this.#logoKey;
  }

  async reload(): Promise<void> {
    const stored = await readSetting(this.#db, SETTINGS_KEY);
    let saved: unknown;
    try {
      saved = stored ? JSON.parse(stored) : {};
    } catch {
      saved = {};
    }
    this.#current = storedOver(this.#defaults, saved);
    const logo = await readSetting(this.#db, LOGO_KEY);
    let parsedLogo: unknown;
    try {
      parsedLogo = logo ? JSON.parse(logo) : null;
    } catch {
      parsedLogo = null;
    }
    const storedLogo = storedLogoSchema.safeParse(parsedLogo);
    this.#logoKey = storedLogo.success ? storedLogo.data.key : null;
    this.#refreshPublic();
  }

  /**
   * Puts a new logo (already in the media store under `key`) in place, or removes it (null);
   * answers the key of the one it replaced, for the caller to delete.
   */
  async setLogo(key: string | null): Promise<string | null> {
    const previous = this.#logoKey;
    await writeSetting(this.#db, LOGO_KEY, JSON.stringify(key ? { key } : null));
    this.#logoKey = key;
    this.#refreshPublic();
    await this.#published();
    return previous;
  }

  async update(update: SettingsUpdate): Promise<Settings> {
    // Each setting was checked alone; together, the default language must be one offered.
    const whole = settingsWholeSchema.safeParse({ ...this.#current, ...update });
    if (!whole.success) {
      throw invalid('schema', whole.error.issues[0]?.message, 'request');
    }
    const next = whole.data;
    next.primaryColor = next.primaryColor.toLowerCase();
    await writeSetting(this.#db, SETTINGS_KEY, JSON.stringify(next));
    this.#current = next;
    this.#refreshPublic();
    await this.#published();
    return next;
  }

  /** Every open page, here and on every instance, takes the new name, colour, logo and pace. */
  #published(): Promise<void> {
    return this.#events.publish({ type: 'settingsUpdated', settings: publicPart(this.#public) });
  }
}

/**
 * The event's time zone as stored now, read from the database rather than from this instance's
 * memory: what the programme's cached answer is built with, so that it agrees on every instance
 * the moment a change is heard of (decision 210).
 */
export async function storedTimezone(db: Db): Promise<string> {
  const stored = await readSetting(db, SETTINGS_KEY);
  let saved: unknown;
  try {
    saved = stored ? JSON.parse(stored) : {};
  } catch {
    saved = {};
  }
  const timezone = settingsSchema.shape.timezone.safeParse(
    typeof saved === 'object' && saved !== null && 'timezone' in saved ? saved.timezone : undefined,
  );
  return timezone.success ? timezone.data : 'UTC';
}

/**
 * The secret attendee and speaker tokens are signed with: SESSION_SECRET, else one made at the
 * first start and stored, so that attendees' tokens survive a restart of the embedded setup.
 */
export async function tokenSecret(db: Db, config: Config): Promise<string> {
  if (config.sessionSecret) return config.sessionSecret;
  return settingOnce(db, TOKEN_SECRET_KEY, randomBytes(32).toString('base64url'));
}

/** The logo's rendition: sharp in the header and on the wall, transparency kept (WebP). */
const LOGO_PLAN: ImagePlan = {
  large: { maxSide: 512, format: 'webp', quality: 90 },
  small: { maxSide: 64, quality: 80 },
  keepAnimation: false,
};
/** The largest logo file taken, in MB (a logo is small; the limit bounds the decoding work). */
export const LOGO_MAX_MB = 5;
const LOGO_FORMATS = 'JPEG, PNG, WebP, GIF or HEIC';

/** What changing the logo touches: named here, not taken from `AppDeps`, which names this store. */
interface LogoDeps {
  media: MediaStore;
  settings: SettingsStore;
}

/**
 * Makes `picture` the event's logo: checked by its bytes (not an image: 415), decoded whole
 * through the image pipeline (damaged: 400), stored without metadata, then put in place; the
 * logo it replaces is deleted. All or nothing: a failure leaves the old logo and no new file.
 */
export async function replaceLogo(
  deps: LogoDeps & { images: ImagePipeline },
  picture: Buffer,
): Promise<PublicBranding> {
  const type = await sniffType(picture.subarray(0, 4100));
  if (type?.kind !== 'image') {
    throw unsupported('logo', LOGO_FORMATS);
  }
  let rendition: Rendition;
  try {
    rendition = (await deps.images.render(picture, type, LOGO_PLAN)).large;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badRequest('unreadableLogo');
  }
  const key = `settings/logo-${newId()}.${rendition.ext}`;
  await deps.media.put(key, rendition.data, rendition.contentType);
  let previous: string | null;
  try {
    previous = await deps.settings.setLogo(key);
  } catch (error) {
    await deps.media.delete(key).catch(() => undefined);
    throw error;
  }
  if (previous) await deps.media.delete(previous).catch(() => undefined);
  return deps.settings.publicBranding();
}

/** Removes the event's logo (the app's own shows again); answers whether there was one. */
export async function removeLogo(deps: LogoDeps): Promise<boolean> {
  if (!deps.settings.logoKey) return false;
  const previous = await deps.settings.setLogo(null);
  if (previous) await deps.media.delete(previous).catch(() => undefined);
  return true;
}

/** The branding without its version: the public settings as the API and events carry them. */
export const publicPart = ({ version: _version, ...settings }: PublicBranding): PublicSettings =>
  settings;
