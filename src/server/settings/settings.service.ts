import { randomBytes } from 'node:crypto';
import {
  type Settings,
  type SettingsUpdate,
  settingsSchema,
} from '../../shared/schemas/settings.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { ChangeFeed } from '../realtime/change-feed.ts';
import { readSetting, settingOnce, writeSetting } from './settings.repository.ts';

const SETTINGS_KEY = 'app';
const TOKEN_SECRET_KEY = 'token-secret';

/** The theme's default accent (Mantine's blue 8, readable on white and on dark). */
export const DEFAULT_PRIMARY_COLOR = '#1971c2';

/** Settings as the server starts without any stored: the environment's, else the product's. */
export const defaultSettings = (config: Config): Settings => ({
  moderateQuestions: false,
  moderateMemories: false,
  eventName: config.eventName,
  primaryColor: DEFAULT_PRIMARY_COLOR,
  wallIntervalSeconds: 8,
  questionsPerMinute: config.questionsPerMinute,
});

/**
 * The admin's settings, kept in memory (every question asked reads them) and stored as one
 * JSON row. A change here is told to the other instances through the change feed, which read
 * them again.
 */
export class SettingsStore {
  #current: Settings;
  readonly #db: Db;
  readonly #feed: ChangeFeed;
  readonly #defaults: Settings;

  private constructor(db: Db, feed: ChangeFeed, defaults: Settings) {
    this.#db = db;
    this.#feed = feed;
    this.#defaults = defaults;
    this.#current = defaults;
  }

  static async open(db: Db, feed: ChangeFeed, config: Config): Promise<SettingsStore> {
    const store = new SettingsStore(db, feed, defaultSettings(config));
    await store.reload();
    feed.subscribe('settings', () => void store.reload().catch(() => undefined));
    return store;
  }

  get current(): Settings {
    return this.#current;
  }

  async reload(): Promise<void> {
    const stored = await readSetting(this.#db, SETTINGS_KEY);
    let saved: unknown;
    try {
      saved = stored ? JSON.parse(stored) : {};
    } catch {
      saved = {};
    }
    const merged = settingsSchema.safeParse({ ...this.#defaults, ...(saved as object) });
    this.#current = merged.success ? merged.data : this.#defaults;
  }

  async update(update: SettingsUpdate): Promise<Settings> {
    const next = settingsSchema.parse({ ...this.#current, ...update });
    next.primaryColor = next.primaryColor.toLowerCase();
    await writeSetting(this.#db, SETTINGS_KEY, JSON.stringify(next));
    this.#current = next;
    await this.#feed.publish('settings');
    return next;
  }
}

/**
 * The secret attendee and speaker tokens are signed with: SESSION_SECRET, else one made at the
 * first start and stored, so that attendees' tokens survive a restart of the embedded setup.
 */
export async function tokenSecret(db: Db, config: Config): Promise<string> {
  if (config.sessionSecret) return config.sessionSecret;
  return settingOnce(db, TOKEN_SECRET_KEY, randomBytes(32).toString('base64url'));
}
