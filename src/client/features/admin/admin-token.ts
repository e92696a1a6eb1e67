import { STORAGE_KEYS } from '../../../shared/constants.ts';
import { storedValue } from '../../lib/stored-value.ts';

/** The admin's token, kept in local storage as `adminToken` (spec section 3). */
const adminToken = storedValue(STORAGE_KEYS.adminToken);

export const setAdminToken = adminToken.set;
/** The stored token, updated when it changes here or in another tab (logout everywhere). */
export const useAdminToken = adminToken.use;
