import type { Memory } from '../../src/shared/schemas/memory.ts';

/** A UUIDv7-shaped id that sorts by `n`, as the server's ids sort by time. */
export const memoryId = (n: number): string =>
  `0193a1f0-0000-7000-8000-${String(n).padStart(12, '0')}`;

/**
 * A memory as the API answers it: a published photo, in a post of its own unless `fields` say
 * otherwise.
 */
export const memoryFixture = (id: string, fields: Partial<Memory> = {}): Memory => ({
  _id: id,
  media: `/media/memories/${id}.jpg`,
  original: `/media/memories/${id}.jpg`,
  thumbnail: null,
  poster: null,
  processing: false,
  contentType: 'image/jpeg',
  username: 'ada',
  text: 'hi',
  postId: id,
  status: 'published',
  createdAt: '2026-11-22T10:00:00.000Z',
  width: 10,
  height: 10,
  ...fields,
});
