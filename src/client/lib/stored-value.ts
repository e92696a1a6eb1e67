import { useSyncExternalStore } from 'react';

export interface StoredValue {
  /** The value, or null when absent or blank (or when storage is unavailable). */
  get: () => string | null;
  /** Stores a value, or removes it with null; every hook using it re-renders. */
  set: (value: string | null) => void;
  /** The value, updated when it changes in this tab or another. */
  use: () => string | null;
}

/** One string kept in local storage, readable from React without going stale. */
export function storedValue(key: string): StoredValue {
  const changeEvent = `confab:stored:${key}`;
  const get = (): string | null => {
    try {
      const value = window.localStorage.getItem(key);
      return value && value.trim() ? value : null;
    } catch {
      return null;
    }
  };
  const subscribe = (onChange: () => void): (() => void) => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === key || event.key === null) onChange();
    };
    window.addEventListener('storage', onStorage);
    window.addEventListener(changeEvent, onChange);
    return () => {
      window.removeEventListener('storage', onStorage);
      window.removeEventListener(changeEvent, onChange);
    };
  };
  return {
    get,
    set: (value) => {
      try {
        if (value === null) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, value);
      } finally {
        window.dispatchEvent(new Event(changeEvent));
      }
    },
    use: () => useSyncExternalStore(subscribe, get, () => null),
  };
}
