import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../shared/constants.ts';

const CHANGE_EVENT = 'confab:username';

function read(): string | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEYS.username);
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

/** The attendee's username, kept in local storage (spec: no authentication). */
export const getStoredUsername = read;

export function setStoredUsername(username: string | null): void {
  if (username === null) window.localStorage.removeItem(STORAGE_KEYS.username);
  else window.localStorage.setItem(STORAGE_KEYS.username, username);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** The stored username, updated when it changes here or in another tab. */
export function useStoredUsername(): string | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
