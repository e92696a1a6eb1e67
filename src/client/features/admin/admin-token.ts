import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '../../../shared/constants.ts';
import { storedText } from '../../lib/local-storage.ts';

/** The admin's token, kept in local storage as `adminToken` (spec section 3). */
const adminToken = storedText(STORAGE_KEYS.adminToken);

/** The stored token, its setter and its remover; a logout in another tab ends it here too. */
export const useAdminToken = () => useLocalStorage(adminToken);
