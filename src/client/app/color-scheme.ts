import { type MantineColorSchemeManager, localStorageColorSchemeManager } from '@mantine/core';
import { COLOR_SCHEME_COOKIE_MAX_AGE, COLOR_SCHEME_STORAGE_KEY } from '../../shared/constants.ts';

/**
 * Light or dark, default light, kept in local storage (as the spec says) and mirrored in a
 * cookie that lives a year, so a server-rendered page could match it too.
 */
export function createColorSchemeManager(): MantineColorSchemeManager {
  const storage = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });
  return {
    ...storage,
    set: (value) => {
      storage.set(value);
      document.cookie = `${COLOR_SCHEME_STORAGE_KEY}=${value}; max-age=${COLOR_SCHEME_COOKIE_MAX_AGE}; path=/; samesite=lax`;
    },
  };
}
