import { STORAGE_KEYS } from '../../shared/constants.ts';
import { storedValue } from './stored-value.ts';

/** The attendee's username, kept in local storage (spec: no authentication). */
const username = storedValue(STORAGE_KEYS.username);

export const getStoredUsername = username.get;
export const setStoredUsername = username.set;
/** The stored username, updated when it changes here or in another tab. */
export const useStoredUsername = username.use;
