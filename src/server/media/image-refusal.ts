import { badRequest, unsupported } from '../http/errors.ts';
import {
  ImageTooLargeError,
  NoStillImageError,
  PIXEL_CAP_TEXT,
  UnreadableImageError,
} from './image-pipeline.ts';

/** A file that looked like its type but cannot be read whole: a 400 naming it. */
export const damaged = (name: string, kind: 'image' | 'video') => badRequest('damaged', name, kind);

/** A speaker's picture of a type the server does not read: a 415 that lists what it reads. */
export const unsupportedPicture = () => unsupported('picture');

/**
 * The answer to a picture the pipeline refused, naming the file: damaged (400), over the pixel
 * cap (400, naming the cap), or a sequence without a still picture (415); anything else as is.
 */
export function imageRefusal(name: string, error: unknown): unknown {
  if (error instanceof ImageTooLargeError) {
    return badRequest('tooManyPixels', name, error.width, error.height, PIXEL_CAP_TEXT);
  }
  if (error instanceof NoStillImageError) {
    return unsupported('noStillImage', name);
  }
  if (error instanceof UnreadableImageError) return damaged(name, 'image');
  return error;
}
