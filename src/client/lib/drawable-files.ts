/** Pictures only Safari draws (the server converts them): shown by name, never broken. */
const UNDRAWABLE = new Set([
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
]);

/**
 * Whether a picked file may be drawn as a picture here: an image of a type browsers draw. Any
 * other that fails to draw after all falls back the same way (`onError`).
 */
export const isDrawableImage = (file: File): boolean =>
  file.type.startsWith('image/') && !UNDRAWABLE.has(file.type.toLowerCase());
