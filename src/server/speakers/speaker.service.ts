import { messagesIn } from '../../shared/i18n/catalogs.ts';
import { SOURCE_LANGUAGE } from '../../shared/i18n/languages.ts';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Speaker, SpeakerFields } from '../../shared/schemas/speaker.ts';
import type { AppDeps } from '../deps.ts';
import { conflict, notFound, unauthorized } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import type { ImagePlan } from '../media/image-pipeline.ts';
import { imageRefusal, unsupportedPicture } from '../media/image-refusal.ts';
import { type Rendition, sniffType } from '../media/images.ts';
import { WHOLE_LIST } from '../lists/list-cache.ts';
import type { ListView } from '../lists/list-route.ts';
import { csvCell } from '../lib/csv-cell.ts';
import { speakerSignInLink } from '../../shared/routes.ts';
import { hashSecret } from '../auth/callers.ts';
import {
  deleteSpeaker,
  findSpeakerByUsername,
  insertSpeaker,
  listSpeakers,
  nameKeyTaken,
  secretHashOf,
  setSecretHash,
  usernamesStartingWith,
} from './speaker.repository.ts';
import { speakerNameKey } from '../lib/speaker-name.ts';
import { firstFreeUsername, usernameBase } from './speaker-username.ts';

/** Display rendition: sharp on a phone and a laptop; avatar: a square for small circles. */
const SPEAKER_PICTURE: ImagePlan = {
  large: { maxSide: 800, format: 'webp', quality: 82 },
  small: { maxSide: 256, square: true, quality: 82 },
  keepAnimation: false,
};
const USERNAME_ATTEMPTS = 10;

/** The unique index a violation names (PostgreSQL's constraint, SQLite's columns), if any. */
function uniqueViolation(error: unknown): 'name' | 'other' | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const sqliteUnique =
    error.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    (error.code === 'ERR_SQLITE_ERROR' &&
      'message' in error &&
      String(error.message).includes('UNIQUE constraint failed'));
  if (error.code !== '23505' && !sqliteUnique) return undefined;
  const detail = `${'constraint' in error ? String(error.constraint) : ''} ${'message' in error ? String(error.message) : ''}`;
  // PostgreSQL names the index, SQLite the column ("speakers_username_key" is the username's).
  return /speakers_name_key_idx|speakers\.name_key/.test(detail) ? 'name' : 'other';
}

/** A new sign-in secret: 192 random bits, URL-safe. */
export const newSecret = (): string => randomBytes(24).toString('base64url');

/** The greeting a new speaker's dashboard shows (the spec's speaker `message`). */
export const welcomeMessage = (eventName: string, name: string): string =>
  `Welcome to ${eventName}, ${name.split(/\s+/)[0] ?? name}! Questions from attendees appear here as soon as they are asked.`;

async function renderPicture(
  deps: Pick<AppDeps, 'images'>,
  picture: Buffer,
): Promise<{ display: Rendition; avatar: Rendition }> {
  const type = await sniffType(picture.subarray(0, 4100));
  if (type?.kind !== 'image') throw unsupportedPicture();
  // The same pipeline and the same answers as a memory's photo (decision 103).
  const { large, small } = await deps.images
    .render(picture, type, SPEAKER_PICTURE)
    .catch((error: unknown) => {
      throw imageRefusal('The picture', error);
    });
  return { display: large, avatar: small };
}

/**
 * Signs a speaker up: the picture is checked by its bytes, stored as a display rendition and
 * a square avatar (metadata stripped), and the speaker gets the first free username derived
 * from the name. All or nothing: on any failure the stored files are removed again.
 */
export async function createSpeaker(
  deps: Pick<AppDeps, 'db' | 'media' | 'images' | 'events' | 'clock' | 'config' | 'settings'>,
  fields: SpeakerFields,
  picture: Buffer,
): Promise<{ speaker: Speaker; secret: string }> {
  const nameKey = speakerNameKey(fields.name);
  // A name already taken is refused before the picture is worked on; the unique index
  // decides for sign-ups that race each other.
  if (await nameKeyTaken(deps.db, nameKey)) {
    throw conflict('nameTaken', fields.name);
  }
  const { display, avatar } = await renderPicture(deps, picture);
  const secret = newSecret();
  const id = newId();
  const pictureKey = `speakers/${id}.${display.ext}`;
  const avatarKey = `speakers/${id}-avatar.${avatar.ext}`;
  const stored: string[] = [];
  try {
    await deps.media.put(pictureKey, display.data, display.contentType);
    stored.push(pictureKey);
    await deps.media.put(avatarKey, avatar.data, avatar.contentType);
    stored.push(avatarKey);

    const base = usernameBase(fields.name);
    for (let attempt = 1; ; attempt += 1) {
      const username = firstFreeUsername(base, await usernamesStartingWith(deps.db, base));
      try {
        const speaker = await insertSpeaker(deps.db, {
          id,
          name: fields.name,
          username,
          stack: fields.stack,
          bio: fields.bio,
          pictureKey,
          avatarKey,
          message: welcomeMessage(deps.settings.publicBranding().eventName, fields.name),
          createdAt: deps.clock.now().toISOString(),
          nameKey,
          secretHash: hashSecret(secret),
        });
        await deps.events.publish({ type: 'speakerCreated', speaker });
        return { speaker, secret };
      } catch (error) {
        const violation = uniqueViolation(error);
        if (violation === 'name') throw conflict('nameTaken', fields.name);
        // Someone took the same username a moment ago: look again (after a short random
        // pause, so racing sign-ups spread out) and take the next one.
        if (violation !== 'other') throw error;
        if (attempt >= USERNAME_ATTEMPTS) {
          throw conflict('nameBeingTaken').retryAfter(1);
        }
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  } catch (error) {
    await Promise.all(stored.map((key) => deps.media.delete(key).catch(() => undefined)));
    throw error;
  }
}

/**
 * Speaker login, case-insensitive: by username only (spec: the read-only dashboard), or with
 * the secret, which adds a speaker token. A wrong secret is a 401.
 */
export async function loginSpeaker(
  deps: Pick<AppDeps, 'db' | 'callers'>,
  username: string,
  secret: string | undefined,
): Promise<{ speaker: Speaker; token?: string }> {
  const speaker = await speakerByUsername(deps, username.trim());
  if (secret === undefined) return { speaker };
  const stored = await secretHashOf(deps.db, speaker.username);
  const given = hashSecret(secret);
  if (
    !stored?.secretHash ||
    !timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(stored.secretHash, 'hex'))
  ) {
    throw unauthorized('speakerSecret');
  }
  return { speaker, token: await deps.callers.signSpeaker(speaker._id, stored.secretHash) };
}

/** The admin issues a speaker a new secret: the old one, and tokens made with it, stop working. */
export async function renewSecret(
  deps: Pick<AppDeps, 'db' | 'events'>,
  id: string,
): Promise<string> {
  const secret = newSecret();
  if (!(await setSecretHash(deps.db, id.toLowerCase(), hashSecret(secret)))) {
    throw notFound('speaker');
  }
  // Screens that watch the pending questions with an old token stop getting them.
  await deps.events.publish({ type: 'speakerSecretRenewed', speakerId: id.toLowerCase() });
  return secret;
}

/**
 * Every speaker's sign-in link as CSV (name, username, link), to send out: each speaker gets a
 * new secret, all in one transaction, and the old ones (and tokens made with them) stop working,
 * as with one renewal. `origin` is the address people open the app at.
 */
export async function signInLinksCsv(
  deps: Pick<AppDeps, 'db' | 'events'>,
  origin: string,
): Promise<string> {
  const issued = await deps.db.transaction().execute(async (trx) => {
    const speakers = await listSpeakers(trx);
    const links: { speaker: Speaker; secret: string }[] = [];
    for (const speaker of speakers) {
      const secret = newSecret();
      await setSecretHash(trx, speaker._id, hashSecret(secret));
      links.push({ speaker, secret });
    }
    return links;
  });
  if (issued.length > 0) {
    await deps.events.publish({
      type: 'speakerSecretsRenewed',
      speakerIds: issued.map(({ speaker }) => speaker._id),
    });
  }
  // The header in English, the console's language: name, username, link.
  const english = messagesIn(SOURCE_LANGUAGE);
  const rows = [
    [
      english.format('csv.speakerLinkName'),
      english.format('csv.speakerLinkUsername'),
      english.format('csv.speakerLinkLink'),
    ],
    ...issued.map(({ speaker, secret }) => [
      speaker.name,
      speaker.username,
      speakerSignInLink(origin, speaker.username, secret),
    ]),
  ];
  // A byte-order mark, so spreadsheets read the names as UTF-8.
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** The admin deletes a speaker, their questions and pictures; every screen sees them go. */
export async function removeSpeaker(
  deps: Pick<AppDeps, 'db' | 'media' | 'events'>,
  id: string,
): Promise<void> {
  const removed = await deleteSpeaker(deps.db, id.toLowerCase());
  if (!removed) throw notFound('speaker');
  await deps.events.publish({ type: 'speakerDeleted', speakerId: id.toLowerCase() });
  for (const key of [removed.pictureKey, removed.avatarKey]) {
    if (key) await deps.media.delete(key).catch(() => undefined);
  }
}

/** The speakers, as the dropdown and the Q&A room poll them: one list, one answer. */
export const speakersView = (deps: Pick<AppDeps, 'db'>): ListView => ({
  topic: 'speakers',
  scope: WHOLE_LIST,
  key: 'speakers',
  rows: () => listSpeakers(deps.db),
});

/** A speaker by username (any case), or a 404. */
export async function speakerByUsername(
  deps: Pick<AppDeps, 'db'>,
  username: string,
): Promise<Speaker> {
  const speaker = await findSpeakerByUsername(deps.db, username);
  if (!speaker) throw notFound('speaker');
  return speaker;
}
