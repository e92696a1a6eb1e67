import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '../../../../shared/constants.ts';
import type { Schedule, Session } from '../../../../shared/schemas/programme.ts';
import { instantOf } from '../../../../shared/zoned-time.ts';
import { storedText } from '../../../lib/local-storage.ts';
import { isOnNow } from './sessions-now.ts';

/*
 * The talk the attendee follows: the one whose page or Q&A they opened last, kept on the device
 * (its id). /home offers its reactions while it is on (decision 237) and shows its polls while
 * it runs and a while after (decision 229).
 */

/** How long after its end a followed talk still shows its polls (the last ones, their results). */
export const FOLLOW_AFTER_END_MS = 30 * 60_000;

const followedSessionStorage = storedText(STORAGE_KEYS.followedSession);

/** The talk opened last (its id), and the setter its page and the Q&A room call. */
export const useFollowedSession = () => useLocalStorage(followedSessionStorage);

/**
 * The talk whose polls /home shows at `now`: the one opened last while it runs or for 30
 * minutes after it ends (not cancelled); else, when exactly one talk is on (one room, or one
 * talk at a time), that one; else none: among parallel talks, the attendee's own choice decides.
 */
export function sessionToFollow(
  schedule: Schedule | undefined,
  followedId: string | undefined,
  now: number,
): Session | null {
  if (!schedule) return null;
  const chosen = followedId
    ? schedule.sessions.find((session) => session._id === followedId)
    : undefined;
  if (chosen && !chosen.cancelled) {
    const starts = instantOf(chosen.startsAt);
    const ends = instantOf(chosen.endsAt);
    if (
      starts !== undefined &&
      ends !== undefined &&
      starts <= now &&
      now < ends + FOLLOW_AFTER_END_MS
    ) {
      return chosen;
    }
  }
  const onNow = schedule.sessions.filter((session) => isOnNow(session, now));
  return onNow.length === 1 ? (onNow[0] ?? null) : null;
}
