import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../../shared/constants.ts';

const CHANGE_EVENT = 'confab:admin-token';

function read(): string | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEYS.adminToken);
    return value && value.trim() ? value : null;
  } catch {
    return null;
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

/** The admin's token, kept in local storage as `adminToken` (spec section 3). */
export const getAdminToken = read;

export function setAdminToken(token: string | null): void {
  try {
    if (token === null) window.localStorage.removeItem(STORAGE_KEYS.adminToken);
    else window.localStorage.setItem(STORAGE_KEYS.adminToken, token);
  } finally {
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }
}

/** The stored token, updated when it changes here or in another tab (logout everywhere). */
export function useAdminToken(): string | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
