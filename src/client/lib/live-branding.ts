import { API_PATHS } from '../../shared/routes.ts';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { type PublicSettings, publicSettingsSchema } from '../../shared/schemas/settings.ts';
import { apiCall } from './api-client.ts';
import { setBranding } from './branding.ts';
import { takeLanguageOffer } from './offered-languages.ts';
import { live } from './live-connection.ts';
import { queryClient } from './query-client.ts';

/** How often the settings are read again, the fallback when the live connection is down. */
const BRANDING_POLL_MS = 60_000;

/** Listeners to the public settings, e.g. the config query's cache (`app-config.ts`). */
const settingsListeners = new Set<(settings: PublicSettings) => void>();

/** Tells `listener` the public settings whenever they arrive, by event or by a read. */
export function onPublicSettings(listener: (settings: PublicSettings) => void): () => void {
  settingsListeners.add(listener);
  return () => {
    settingsListeners.delete(listener);
  };
}

const PUBLIC_SETTING_KEYS = Object.keys(publicSettingsSchema.shape) as (keyof PublicSettings)[];

/**
 * The public settings within a larger answer (the config, the admin's settings), each taken by
 * its schema's name: a new public setting is picked everywhere without a list to keep.
 */
export function publicSettingsOf(answer: PublicSettings): PublicSettings {
  return Object.fromEntries(PUBLIC_SETTING_KEYS.map((key) => [key, answer[key]])) as PublicSettings;
}

/** New public settings: the branding of every screen, and whoever listens. */
export function takePublicSettings(settings: PublicSettings): void {
  setBranding(settings);
  takeLanguageOffer(settings);
  for (const listener of settingsListeners) listener(settings);
}

const readSettings = () =>
  apiCall(publicConfigSchema, API_PATHS.config).then(
    (config) => takePublicSettings(publicSettingsOf(config)),
    () => undefined,
  );

/**
 * The branding kept live (decision 162), and every list read again after a purge: `settingsUpdated` events, a read at every connect of
 * the socket (what changed while it was down), and a read every minute. The answer stops it.
 */
export function startLiveBranding(): () => void {
  const stop = live.listen({
    event: (event, payload) => {
      // Attendees' data was purged (decision 218): every screen reads its lists again.
      if (event === 'dataPurged') void queryClient.invalidateQueries();
      if (event !== 'settingsUpdated') return;
      takePublicSettings((payload as { settings: PublicSettings }).settings);
    },
    connect: () => void readSettings(),
  });
  const timer = setInterval(() => void readSettings(), BRANDING_POLL_MS);
  return () => {
    stop();
    clearInterval(timer);
  };
}
