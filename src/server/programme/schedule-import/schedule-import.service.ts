import type { Transaction } from 'kysely';
import type { ScheduleImportResult } from '../../../shared/schemas/schedule-import.ts';
import type { Database } from '../../db/database.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib/ids.ts';
import { speakerNameKey } from '../../lib/speaker-name.ts';
import { readSetting, writeSetting } from '../../settings/settings.repository.ts';
import { welcomeMessage } from '../../speakers/speaker.service.ts';
import { firstFreeUsername, usernameBase } from '../../speakers/speaker-username.ts';
import {
  type StoredSession,
  cancelSession,
  deleteSession,
  insertSession,
  listSessions,
  sessionHasDependents,
  setSessionSpeakers,
  renameSpeaker,
  setSpeakerPersonId,
  updateSession,
  upsertRoomByName,
} from '../programme.repository.ts';
import { changeSchedule } from '../programme.service.ts';
import type { ParsedPerson, ParsedSchedule, ParsedSession } from './parsed-schedule.ts';
import { scheduleProblem } from './parsed-schedule.ts';
import { fetchScheduleText } from './schedule-fetch.ts';
import {
  type ImportedSpeaker,
  type SpeakerKeys,
  insertImportedSpeakers,
  programmeSpan,
  speakerKeys,
  takeRefreshLease,
} from './schedule-import.repository.ts';
import { parseJsonText, parseScheduleJson } from './schedule-json.ts';
import { parseScheduleXml } from './schedule-xml.ts';

/*
 * Importing a pretalx or frab schedule (decision 212): the file read into one shape, then ONE
 * transaction that upserts rooms by name, sessions by guid (keeping their ids, so what hangs
 * on them stays) and people as speakers (by the schedule's person id, then by name key), and
 * cancels or deletes the sessions gone from it; `changeSchedule` moves the version and
 * publishes the change once, after the commit.
 */

type ImportDeps = Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings' | 'config'>;

/** Largest schedule taken, uploaded or fetched: the largest real ones are about 3 MB. */
export const SCHEDULE_MAX_BYTES = 10 * 1024 * 1024;

/** How a schedule at an address is fetched (decision 213). */
const FETCH = { timeoutMs: 20_000, maxRedirects: 3 } as const;

/** The settings row naming the address the last import was fetched from (for the refresh). */
const SOURCE_KEY = 'scheduleSource';

/** What a request to import carries: a file as text, in the format its media type names. */
export interface ScheduleUpload {
  body: string;
  format: 'xml' | 'json';
}

/** A schedule's text in whichever format it is: XML starts with `<`, JSON with `{`. */
function parseAny(text: string): ParsedSchedule {
  const start = text.trimStart()[0];
  if (start === '<') return parseScheduleXml(text);
  if (start === '{') return parseScheduleJson(parseJsonText(text));
  throw scheduleProblem('line 1', 'the file is neither XML nor JSON');
}

/** The schedule at `url`, fetched as decision 213 says. */
async function fetchSchedule(deps: Pick<AppDeps, 'config'>, url: string): Promise<ParsedSchedule> {
  const text = await fetchScheduleText(url, {
    allowedHosts: deps.config.schedule.allowedHosts,
    maxBytes: SCHEDULE_MAX_BYTES,
    ...FETCH,
  });
  return parseAny(text);
}

/**
 * Imports an uploaded schedule: XML, JSON in the schedule.json format, or JSON `{ url }` naming
 * where to fetch one. Answers what was added, updated, cancelled and deleted.
 */
export async function importUpload(
  deps: ImportDeps,
  upload: ScheduleUpload,
): Promise<ScheduleImportResult> {
  if (upload.format === 'xml') return importSchedule(deps, parseScheduleXml(upload.body), null);
  const document = parseJsonText(upload.body);
  if (
    typeof document === 'object' &&
    document !== null &&
    'url' in document &&
    !('schedule' in document)
  ) {
    const { url } = document;
    if (typeof url !== 'string') throw scheduleProblem('url', 'must be an http(s) address');
    return importSchedule(deps, await fetchSchedule(deps, url), url);
  }
  return importSchedule(deps, parseScheduleJson(document), null);
}

/** The address the last import was fetched from, if it was. */
export async function scheduleSourceUrl(deps: Pick<AppDeps, 'db'>): Promise<string | null> {
  const stored = await readSetting(deps.db, SOURCE_KEY);
  if (!stored) return null;
  try {
    const source = JSON.parse(stored) as { url?: unknown };
    return typeof source.url === 'string' ? source.url : null;
  } catch {
    return null;
  }
}

/** The refresh runs from a day before the first session starts until the last one ends. */
const REFRESH_LEAD_MS = 24 * 3_600_000;

/**
 * Fetches the schedule again from the address the last import came from, while the event runs
 * (decision 213), on one instance at a time (`owner` holds a lease for `leaseMs`). Answers
 * what the import did, or null when there was nothing to do.
 */
export async function refreshSchedule(
  deps: ImportDeps,
  lease: { owner: string; leaseMs: number },
): Promise<ScheduleImportResult | null> {
  const url = await scheduleSourceUrl(deps);
  if (!url) return null;
  const now = deps.clock.now();
  const span = await programmeSpan(deps.db);
  if (
    span &&
    (now.getTime() < new Date(span.firstStart).getTime() - REFRESH_LEAD_MS ||
      now.getTime() > new Date(span.lastEnd).getTime())
  ) {
    return null;
  }
  const held = await takeRefreshLease(deps.db, {
    owner: lease.owner,
    now: now.toISOString(),
    until: new Date(now.getTime() + lease.leaseMs).toISOString(),
  });
  if (!held) return null;
  return importSchedule(deps, await fetchSchedule(deps, url), url);
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * The speakers of a schedule's people: by the person id a speaker was linked to, else by name
 * key (a speaker who signed up by hand is linked, and stays one speaker), else a new speaker
 * with the first free username. A second person whose name key is a linked speaker's is a
 * different person of the same name: a new speaker, whose name key stays unset.
 */
class SpeakerMatcher {
  readonly #byPerson = new Map<string, string>();
  readonly #byNameKey = new Map<string, SpeakerKeys>();
  readonly #usernames = new Set<string>();
  readonly #resolved = new Map<string, string>();
  readonly added: ImportedSpeaker[] = [];
  readonly links: { speakerId: string; personId: string }[] = [];
  /** Linked speakers whose person the schedule now names differently. */
  readonly renames: { id: string; name: string; nameKey: string | null }[] = [];
  readonly #byId = new Map<string, SpeakerKeys>();
  readonly #matched = new Set<string>();

  constructor(
    speakers: readonly SpeakerKeys[],
    private readonly made: { createdAt: string; eventName: string },
  ) {
    for (const speaker of speakers) {
      this.#byId.set(speaker.id, speaker);
      this.#usernames.add(speaker.username);
      if (speaker.personId) this.#byPerson.set(speaker.personId, speaker.id);
      if (speaker.nameKey) this.#byNameKey.set(speaker.nameKey, speaker);
    }
  }

  get matched(): number {
    return this.#matched.size;
  }

  speakerOf(person: ParsedPerson): string {
    const known = this.#resolved.get(person.id);
    if (known) return known;
    const id = this.#match(person);
    this.#resolved.set(person.id, id);
    return id;
  }

  #match(person: ParsedPerson): string {
    const linked = this.#byPerson.get(person.id);
    if (linked) {
      this.#matched.add(linked);
      this.#renameIfChanged(linked, person.name);
      return linked;
    }
    const nameKey = speakerNameKey(person.name);
    const sameName = this.#byNameKey.get(nameKey);
    if (sameName && sameName.personId === null) {
      sameName.personId = person.id;
      this.#byPerson.set(person.id, sameName.id);
      this.links.push({ speakerId: sameName.id, personId: person.id });
      this.#matched.add(sameName.id);
      return sameName.id;
    }
    const username = firstFreeUsername(usernameBase(person.name), this.#usernames);
    this.#usernames.add(username);
    const speaker: ImportedSpeaker = {
      id: newId(),
      name: person.name,
      username,
      bio: person.biography,
      message: welcomeMessage(this.made.eventName, person.name),
      createdAt: this.made.createdAt,
      nameKey: sameName ? null : nameKey,
      personId: person.id,
    };
    this.added.push(speaker);
    this.#byPerson.set(person.id, speaker.id);
    if (!sameName) {
      this.#byNameKey.set(nameKey, {
        id: speaker.id,
        name: person.name,
        username,
        nameKey,
        personId: person.id,
      });
    }
    return speaker.id;
  }

  /**
   * The schedule is the programme's truth: a person it now names differently (a typo fixed, a
   * name added) is renamed, keeping their username, sign-in and questions. The new name's key
   * goes with it unless another speaker holds it (two people of one name, as on a first import).
   */
  #renameIfChanged(speakerId: string, name: string): void {
    const speaker = this.#byId.get(speakerId);
    if (!speaker || speaker.name === name) return;
    const nameKey = speakerNameKey(name);
    const holder = this.#byNameKey.get(nameKey);
    const keyFree = holder === undefined || holder.id === speakerId;
    if (speaker.nameKey !== null && this.#byNameKey.get(speaker.nameKey)?.id === speakerId) {
      this.#byNameKey.delete(speaker.nameKey);
    }
    speaker.name = name;
    speaker.nameKey = keyFree ? nameKey : null;
    if (keyFree) this.#byNameKey.set(nameKey, speaker);
    this.renames.push({ id: speakerId, name, nameKey: speaker.nameKey });
  }
}

/** What a session of the file writes, compared with what is stored to skip unchanged ones. */
function sessionWrite(session: ParsedSession, roomId: string) {
  return {
    title: session.title,
    abstract: session.abstract,
    roomId,
    startsAt: session.startsAt.toISOString(),
    endsAt: session.endsAt.toISOString(),
    track: session.track,
    cancelled: false,
  };
}

function unchanged(
  stored: StoredSession,
  write: ReturnType<typeof sessionWrite>,
  speakerIds: string[],
): boolean {
  return (
    stored.title === write.title &&
    stored.abstract === write.abstract &&
    stored.roomId === write.roomId &&
    new Date(stored.startsAt).getTime() === new Date(write.startsAt).getTime() &&
    new Date(stored.endsAt).getTime() === new Date(write.endsAt).getTime() &&
    stored.track === write.track &&
    !stored.cancelled &&
    sameIds(stored.speakerIds, speakerIds)
  );
}

/**
 * Imports a parsed schedule in ONE transaction (nothing half-imported) and publishes the
 * change once; `sourceUrl` is where it was fetched from (null: uploaded), kept for the refresh.
 * The event's time zone becomes the schedule's when it names one.
 */
export async function importSchedule(
  deps: ImportDeps,
  schedule: ParsedSchedule,
  sourceUrl: string | null,
): Promise<ScheduleImportResult> {
  const now = deps.clock.now().toISOString();
  const result = await changeSchedule(deps, async (trx: Transaction<Database>) => {
    const rooms = new Map<string, string>();
    for (const [position, name] of schedule.rooms.entries()) {
      const { room } = await upsertRoomByName(trx, { name, position, createdAt: now });
      rooms.set(name, room._id);
    }

    const people = new SpeakerMatcher(await speakerKeys(trx), {
      createdAt: now,
      eventName: deps.settings.publicBranding().eventName,
    });
    const planned = schedule.sessions.map((session) => ({
      session,
      speakerIds: session.persons.map((person) => people.speakerOf(person)),
    }));
    // New speakers first: the sessions name them.
    await insertImportedSpeakers(trx, people.added);
    for (const { speakerId, personId } of people.links) {
      await setSpeakerPersonId(trx, speakerId, personId);
    }
    for (const renamed of people.renames) await renameSpeaker(trx, renamed);

    const stored = new Map<string, StoredSession>();
    for (const session of await listSessions(trx)) {
      if (session.guid !== null) stored.set(session.guid, session);
    }
    const sessions = { added: 0, updated: 0, unchanged: 0, cancelled: 0, deleted: 0 };
    for (const { session, speakerIds } of planned) {
      const roomId = rooms.get(session.room);
      if (!roomId) throw new Error(`room ${session.room} was not stored`);
      const write = sessionWrite(session, roomId);
      const before = stored.get(session.guid);
      stored.delete(session.guid);
      if (before && unchanged(before, write, speakerIds)) {
        sessions.unchanged += 1;
        continue;
      }
      let id: string;
      if (before) {
        await updateSession(trx, before.id, { ...write, now });
        id = before.id;
        sessions.updated += 1;
      } else {
        id = await insertSession(trx, { ...write, guid: session.guid, now });
        sessions.added += 1;
      }
      if (!before || !sameIds(before.speakerIds, speakerIds)) {
        await setSessionSpeakers(trx, id, speakerIds);
      }
    }
    // Gone from the schedule: cancelled when something hangs on it, else deleted.
    for (const gone of stored.values()) {
      if (gone.cancelled) continue;
      if (await sessionHasDependents(trx, gone.id)) {
        await cancelSession(trx, gone.id, now);
        sessions.cancelled += 1;
      } else {
        await deleteSession(trx, gone.id);
        sessions.deleted += 1;
      }
    }
    await writeSetting(
      trx,
      SOURCE_KEY,
      JSON.stringify(
        sourceUrl ? { url: sourceUrl, importedAt: now } : { url: null, importedAt: now },
      ),
    );
    return {
      rooms: schedule.rooms.length,
      sessions,
      speakers: { added: people.added.length, matched: people.matched },
    };
  });
  if (schedule.timezone && deps.settings.current.timezone !== schedule.timezone) {
    await deps.settings.update({ timezone: schedule.timezone });
  }
  return result;
}
