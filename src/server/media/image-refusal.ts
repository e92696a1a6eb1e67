import { ACCEPTED_IMAGE_FORMAT_NAMES } from '../../shared/constants.ts';
import { HttpError } from '../http/errors.ts';
import {
  ImageTooLargeError,
  NoStillImageError,
  PIXEL_CAP_TEXT,
  UnreadableImageError,
} from './image-pipeline.ts';

/** A file that looked like its type but cannot be read whole: a 400 naming it. */
export const damaged = (name: string, kind: 'image' | 'video') =>
  new HttpError(400, `${name} could not be read: the ${kind} is damaged or incomplete.`);

/** A speaker's picture of a type the server does not read: a 415 that lists what it reads. */
export const unsupportedPicture = () =>
  new HttpError(
    415,
    `The picture must be an image. Supported formats: ${ACCEPTED_IMAGE_FORMAT_NAMES.join(', ')}.`,
  );

/**
 * The answer to a picture the pipeline refused, naming the file: damaged (400), over the pixel
 * cap (400, naming the cap), or a sequence without a still picture (415); anything else as is.
 */
export function imageRefusal(name: string, error: unknown): unknown {
  if (error instanceof ImageTooLargeError) {
    const size =
      error.width > 0
        ? ` (${error.width}×${error.height}, ${Math.round((error.width * error.height) / 1_000_000)} megapixels)`
        : '';
    return new HttpError(
      400,
      `${name} is too large${size}: pictures of up to ${PIXEL_CAP_TEXT} are accepted.`,
    );
  }
  if (error instanceof NoStillImageError) {
    return new HttpError(
      415,
      `${name} holds an image sequence without a still picture; post a photo or a video instead.`,
    );
  }
  if (error instanceof UnreadableImageError) return damaged(name, 'image');
  return error;
}
