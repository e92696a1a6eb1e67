import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

/** The committed media fixtures (tests/fixtures/README.md says how each was made). */
export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/** A committed fixture's bytes. */
export const fixture = (name: string): Promise<Buffer> => fs.readFile(path.join(FIXTURES, name));

/**
 * A photo of random noise, which does not compress: big for its size (600 × 600 is about
 * 1 MB as PNG) and slow enough to render that processing takes a moment.
 */
export function noisyImage(
  format: 'png' | 'jpeg' = 'png',
  { width = 600, height = 600, sigma = 60 } = {},
): Promise<Buffer> {
  const image = sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma },
    },
  });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
}
