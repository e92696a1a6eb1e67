import type { SettingsStore } from './settings.service.ts';

/** What the event shows of itself: its name and colour, as the admin set them. */
export interface PublicBranding {
  eventName: string;
  primaryColor: string;
}

/** The event's current name and colour (a settings change applies at the next read). */
export const publicBranding = (settings: Pick<SettingsStore, 'current'>): PublicBranding => ({
  eventName: settings.current.eventName,
  primaryColor: settings.current.primaryColor,
});
