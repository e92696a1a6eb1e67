import { lastPurgeAt } from './erasure.repository.ts';
import type { AttendeeErasures } from '../auth/callers.ts';
import { ATTENDEE_TOKEN_TTL_MS } from '../auth/callers.ts';
import type { Db } from '../db/database.ts';
import type { Events } from '../events/events.ts';
import type { Clock } from '../lib/clock.ts';
import { type ErasureState, listErasures } from './attendee.repository.ts';

/**
 * The attendees whose erasure began, and where each stands, in memory (decision 214): read at
 * start, then kept by the `attendeeErasure` events of every instance, and read again when some
 * may have been missed. Every attendee request asks it (a map lookup) instead of the database.
 * Only erasures younger than an attendee token's life are kept: every token issued before an
 * older one has expired (a new join makes a new attendee). With them, when the last purge
 * removed every attendee (decision 218, told by `eventDataPurged`): tokens issued before it are
 * refused.
 */
export class ErasedAttendees implements AttendeeErasures {
  #states = new Map<string, ErasureState>();
  #purgedAt: Date | undefined;
  readonly #db: Db;
  readonly #clock: Clock;

  private constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  static async open(db: Db, events: Events, clock: Clock): Promise<ErasedAttendees> {
    const erased = new ErasedAttendees(db, clock);
    await erased.reload();
    events.subscribe('caches', {
      on: (event) => {
        if (event.type === 'attendeeErasure') erased.#note(event.attendeeId, event.state);
        if (event.type === 'eventDataPurged' && event.purgedAt) erased.#purged(event.purgedAt);
      },
      missed: () => void erased.reload().catch(() => undefined),
    });
    return erased;
  }

  stateOf(attendeeId: string): ErasureState | undefined {
    return this.#states.get(attendeeId);
  }

  get purgedAt(): Date | undefined {
    return this.#purgedAt;
  }

  /** How many attendees it holds (what it costs in memory). */
  get size(): number {
    return this.#states.size;
  }

  async reload(): Promise<void> {
    const since = new Date(this.#clock.now().getTime() - ATTENDEE_TOKEN_TTL_MS).toISOString();
    const [rows, purgedAt] = await Promise.all([
      listErasures(this.#db, since),
      lastPurgeAt(this.#db),
    ]);
    if (purgedAt) this.#purged(purgedAt);
    const states = new Map<string, ErasureState>();
    for (const { id, state } of rows) states.set(id, state);
    // What this instance heard meanwhile stays: an erasure never goes back.
    for (const [id, state] of this.#states) if (state === 'erased') states.set(id, state);
    this.#states = states;
  }

  /** A purge only moves forward: one heard late does not undo a later one. */
  #purged(at: string): void {
    const time = new Date(at);
    if (!this.#purgedAt || time > this.#purgedAt) this.#purgedAt = time;
  }

  #note(attendeeId: string, state: ErasureState): void {
    // `erased` is final; an `erasing` heard late (from a slower instance) does not undo it.
    if (this.#states.get(attendeeId) === 'erased') return;
    this.#states.set(attendeeId, state);
  }
}
