import { useBranding } from './branding.ts';

/** The event's name as the texts say it ({product}): the admin's setting, live (decision 162). */
export function useEventName(): string {
  return useBranding().eventName;
}
