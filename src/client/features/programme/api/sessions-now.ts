import type { Schedule, Session } from '../../../../shared/schemas/programme.ts';
import { instantOf, zonedFormatter } from '../../../../shared/zoned-time.ts';

/*
 * Which sessions a screen offers first, by the device's clock: the ones on now, then the rest
 * of today's (in the event's time zone), as the ask dialog, the Q&A room and a speaker's
 * dashboard list them (decision 223).
 */

/** Whether a session runs at `now` (milliseconds): not cancelled, started and not ended. */
export function isOnNow(session: Session, now: number): boolean {
  const starts = instantOf(session.startsAt);
  const ends = instantOf(session.endsAt);
  return (
    !session.cancelled && starts !== undefined && ends !== undefined && starts <= now && now < ends
  );
}

/** A session's start as the programme shows it, in the event's time zone (`14:00`). */
export const startTime = (session: Session): string => session.startsAt.slice(11, 16);

/** The day of a time in the event's time zone (`2026-03-28`), as its text carries it. */
const dayOf = (zoned: string) => zoned.slice(0, 10);

/** The sessions to offer today: those on now, then today's others by start; none cancelled. */
export function todaysSessions(
  schedule: Schedule | undefined,
  now: number,
): { onNow: Session[]; later: Session[] } {
  if (!schedule) return { onNow: [], later: [] };
  const today = dayOf(zonedFormatter(schedule.timezone)(now));
  const onNow: Session[] = [];
  const later: Session[] = [];
  for (const session of schedule.sessions) {
    if (session.cancelled) continue;
    if (isOnNow(session, now)) onNow.push(session);
    else if (dayOf(session.startsAt) === today) later.push(session);
  }
  return { onNow, later };
}

/** A speaker's sessions: the one on now first, then the others by start (cancelled ones too). */
export function sessionsOfSpeaker(
  schedule: Schedule | undefined,
  speakerId: string,
  now: number,
): Session[] {
  const own = (schedule?.sessions ?? []).filter((session) =>
    session.speakerIds.includes(speakerId),
  );
  return [
    ...own.filter((session) => isOnNow(session, now)),
    ...own.filter((session) => !isOnNow(session, now)),
  ];
}
