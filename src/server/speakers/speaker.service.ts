import { DASHBOARD_QUESTIONS_MAX } from '../../shared/qa-constants.ts';
import type { Speaker, SpeakerDashboard, SpeakerFields } from '../../shared/schemas/speaker.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import type { ImagePlan } from '../media/image-pipeline.ts';
import { type Rendition, sniffType } from '../media/images.ts';
import { listQuestions } from '../questions/question.repository.ts';
import {
  findSpeakerByUsername,
  insertSpeaker,
  usernamesStartingWith,
} from './speaker.repository.ts';
import { firstFreeUsername, usernameBase } from './speaker-username.ts';

/** Display rendition: sharp on a phone and a laptop; avatar: a square for small circles. */
const SPEAKER_PICTURE: ImagePlan = {
  large: { maxSide: 800, format: 'webp', quality: 82 },
  small: { maxSide: 256, square: true, quality: 82 },
  keepAnimation: false,
};
const USERNAME_ATTEMPTS = 10;

const IMAGE_FORMATS = 'JPEG, PNG, WebP, GIF or HEIC';

const isUniqueViolation = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return error.code === '23505' || error.code === 'SQLITE_CONSTRAINT_UNIQUE';
};

/** The greeting a new speaker's dashboard shows (the spec's speaker `message`). */
export const welcomeMessage = (eventName: string, name: string): string =>
  `Welcome to ${eventName}, ${name.split(/\s+/)[0] ?? name}! Questions from attendees appear here as soon as they are asked.`;

async function renderPicture(
  deps: Pick<AppDeps, 'images'>,
  picture: Buffer,
): Promise<{ display: Rendition; avatar: Rendition }> {
  const type = await sniffType(picture.subarray(0, 4100));
  if (type?.kind !== 'image') {
    throw new HttpError(415, `The picture must be an image (${IMAGE_FORMATS})`);
  }
  try {
    const { large, small } = await deps.images.render(picture, type, SPEAKER_PICTURE);
    return { display: large, avatar: small };
  } catch {
    throw new HttpError(
      415,
      `The picture could not be read as an image; try another file (${IMAGE_FORMATS})`,
    );
  }
}

/**
 * Signs a speaker up: the picture is checked by its bytes, stored as a display rendition and
 * a square avatar (metadata stripped), and the speaker gets the first free username derived
 * from the name. All or nothing: on any failure the stored files are removed again.
 */
export async function createSpeaker(
  deps: Pick<AppDeps, 'db' | 'media' | 'images' | 'realtime' | 'clock' | 'config' | 'lists'>,
  fields: SpeakerFields,
  picture: Buffer,
): Promise<Speaker> {
  const { display, avatar } = await renderPicture(deps, picture);
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
          message: welcomeMessage(deps.config.eventName, fields.name),
          createdAt: deps.clock.now().toISOString(),
        });
        await deps.lists.changed('speakers');
        deps.realtime.speakerCreated(speaker);
        return speaker;
      } catch (error) {
        // Someone took the same username a moment ago: look again (after a short random
        // pause, so racing sign-ups spread out) and take the next one.
        if (!isUniqueViolation(error)) throw error;
        if (attempt >= USERNAME_ATTEMPTS) {
          throw new HttpError(
            409,
            'Someone with the same name is signing up at this very moment; try again.',
            'CONFLICT',
            1,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  } catch (error) {
    await Promise.all(stored.map((key) => deps.media.delete(key).catch(() => undefined)));
    throw error;
  }
}

/** Speaker login by username only (spec), case-insensitive. */
export const loginSpeaker = (deps: Pick<AppDeps, 'db'>, username: string): Promise<Speaker> =>
  speakerByUsername(deps, username.trim());

/** A speaker by username (any case), or a 404. */
export async function speakerByUsername(
  deps: Pick<AppDeps, 'db'>,
  username: string,
): Promise<Speaker> {
  const speaker = await findSpeakerByUsername(deps.db, username);
  if (!speaker) throw new HttpError(404, 'Speaker not found');
  return speaker;
}

/** The speaker with their latest questions, oldest first. */
export async function speakerDashboard(
  deps: Pick<AppDeps, 'db'>,
  speaker: Speaker,
): Promise<SpeakerDashboard> {
  const questions = await listQuestions(
    deps.db,
    { speakerId: speaker._id },
    DASHBOARD_QUESTIONS_MAX,
  );
  return { ...speaker, questions };
}
