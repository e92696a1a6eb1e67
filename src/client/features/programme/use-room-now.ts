import { useEffect, useState } from 'react';
import type { Schedule } from '../../../shared/schemas/programme.ts';
import { live } from '../../lib/live-connection.ts';
import { type RoomNow, nextChange, roomNow } from './room-now.ts';

/**
 * A timer never waits longer than this: past it the page reads the clock again and sets the
 * next one (a browser's timers stop at about 24.8 days, and a sleeping laptop's drift).
 */
const LONGEST_WAIT_MS = 6 * 60 * 60_000;

/**
 * What the room `roomId` shows now, following the clock (the browser's `Date.now()`): one timer
 * set for the exact instant the answer next changes (a session's start or end, the start of the
 * next talk's day), set again whenever the programme changes (`scheduleUpdated` refetches it),
 * and the clock read again when the page is shown again or the live connection comes back
 * (timers of a hidden page or a sleeping machine run late). No polling loop.
 */
export function useRoomNow(schedule: Schedule | undefined, roomId: string): RoomNow | undefined {
  const [now, setNow] = useState(() => Date.now());
  const shown = schedule ? roomNow(schedule.sessions, roomId, now, schedule.timezone) : undefined;
  // A programme changed since `now` was read may have a change already past: its timer fires at
  // once and the clock is read again, so what shows is never older than one event loop turn.
  const changeAt = schedule
    ? nextChange(schedule.sessions, roomId, now, schedule.timezone)
    : undefined;

  useEffect(() => {
    if (changeAt === undefined) return undefined;
    const wait = Math.min(Math.max(changeAt - Date.now(), 0), LONGEST_WAIT_MS);
    const timer = setTimeout(() => setNow(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [changeAt, now]);

  useEffect(() => {
    const readClock = () => {
      if (document.visibilityState === 'visible') setNow(Date.now());
    };
    document.addEventListener('visibilitychange', readClock);
    window.addEventListener('pageshow', readClock);
    const stopListening = live.listen({ event: () => undefined, connect: readClock });
    return () => {
      document.removeEventListener('visibilitychange', readClock);
      window.removeEventListener('pageshow', readClock);
      stopListening();
    };
  }, []);

  return shown;
}
