import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '../../../../shared/constants.ts';
import { storedText } from '../../../lib/local-storage.ts';

/**
 * The speaker signed in with their secret: the token and the username it is for, kept in
 * local storage. The dashboard of that username shows the speaker's controls.
 */
export function useSpeakerSession(): {
  token: string | undefined;
  username: string | undefined;
  save: (username: string, token: string) => void;
  clear: () => void;
} {
  const [token, setToken, removeToken] = useLocalStorage(storedText(STORAGE_KEYS.speakerToken));
  const [username, setUsername, removeUsername] = useLocalStorage(
    storedText(STORAGE_KEYS.speakerTokenUsername),
  );
  return {
    token,
    username,
    save: (name, value) => {
      setUsername(name.toLowerCase());
      setToken(value);
    },
    clear: () => {
      removeToken();
      removeUsername();
    },
  };
}

/** The speaker's token when it is for this username, else undefined. */
export function useSpeakerToken(username: string): string | undefined {
  const session = useSpeakerSession();
  return session.username === username.toLowerCase() ? session.token : undefined;
}
