import { readLocalStorageValue, useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '../../shared/constants.ts';
import { storedText } from './local-storage.ts';

/** The attendee's username, kept in local storage as `username` (spec: no authentication). */
const username = storedText(STORAGE_KEYS.username);

/** The stored username, its setter and its remover, updated when it changes here or elsewhere. */
export const useStoredUsername = () => useLocalStorage(username);

/** The stored username, outside React (the headers of every call). */
export const getStoredUsername = (): string | undefined =>
  readLocalStorageValue<string | undefined>(username);
