import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { migrateToLatest, openDatabase } from '../../src/server/db/connect.ts';
import { DiskMediaStore } from '../../src/server/media/disk-media-store.ts';
import { FIXTURE_VIDEO, type MemorySeed, seedMemories } from '../support/seed-memories.ts';
import { CLIENT_ID_HEADER } from '../../src/shared/constants.ts';
import { API_PATHS } from '../../src/shared/routes.ts';
import { type Memory, memoryPostResponseSchema } from '../../src/shared/schemas/memory.ts';

/** The file an attendee would pick for a seed: a plain-coloured PNG, or the fixture clip. */
async function seedFile(seed: MemorySeed): Promise<File> {
  if (seed.kind === 'video') {
    return new File([await fs.readFile(FIXTURE_VIDEO)], 'clip.mp4', { type: 'video/mp4' });
  }
  const png = await sharp({
    create: { width: 320, height: 240, channels: 3, background: seed.color ?? '#5c7cfa' },
  })
    .png()
    .toBuffer();
  return new File([png], 'photo.png', { type: 'image/png' });
}

/**
 * Posts memories to a running server through its API, as attendees would, one post each and
 * in order (the last is the newest). Every open screen learns of them as it would in use. Each
 * seed's username stands for a person of their own (their client id), as the write limits
 * count people.
 */
export async function seedMemoriesInto(
  server: { url: string },
  seeds: MemorySeed[],
): Promise<Memory[]> {
  const stored: Memory[] = [];
  for (const seed of seeds) {
    const form = new FormData();
    form.set('caption', seed.text);
    form.set('username', seed.username);
    form.set('files', await seedFile(seed));
    const response = await fetch(`${server.url}${API_PATHS.memoryCreate}`, {
      method: 'POST',
      headers: { [CLIENT_ID_HEADER]: seed.username },
      body: form,
    });
    if (response.status !== 201) {
      throw new Error(`Seeding a memory answered ${response.status}: ${await response.text()}`);
    }
    stored.push(...memoryPostResponseSchema.parse(await response.json()).memories);
  }
  return stored;
}

/**
 * Stores memories in a data directory before a server starts on it, through the app's own
 * migrations and repositories: for galleries too large to post one by one in a test.
 */
export async function seedDataDir(dataDir: string, seeds: MemorySeed[]): Promise<void> {
  const database = openDatabase({
    dataDir,
    databaseUrl: undefined,
    databaseSchema: undefined,
    databasePoolSize: 1,
  });
  try {
    await migrateToLatest(database);
    await seedMemories(
      { db: database.db, media: new DiskMediaStore(path.join(dataDir, 'media')) },
      seeds,
    );
  } finally {
    await database.close();
  }
}
