import { sql } from 'kysely';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { memoryListSchema } from '../shared/schemas/memory.ts';
import type { MediaStore } from './media/media-store.ts';
import { type TestApp, testDatabases, useTestApp } from '../../tests/support/test-app.ts';

const png = (background: string) =>
  sharp({ create: { width: 16, height: 16, channels: 3, background } })
    .png()
    .toBuffer();

async function postMemory(t: TestApp, caption: string): Promise<Response> {
  const form = new FormData();
  form.append('caption', caption);
  form.append('username', 'ada');
  form.append('files', new Blob([new Uint8Array(await png('#0c8599'))]), 'a.png');
  form.append('files', new Blob([new Uint8Array(await png('#e8590c'))]), 'b.png');
  return fetch(`${t.url}/api/memories`, { method: 'POST', body: form });
}

async function listed(t: TestApp): Promise<string[]> {
  const response = await fetch(`${t.url}/api/memory`);
  return memoryListSchema.parse(await response.json()).map((memory) => memory.text);
}

/** Makes the store's writes fail after `okWrites` succeeded, until `heal` is called. */
function breakWrites(media: MediaStore, error: () => Error, okWrites = 1): () => void {
  const put = media.put.bind(media);
  let writes = 0;
  media.put = async (...args) => {
    writes += 1;
    if (writes > okWrites) throw error();
    return put(...args);
  };
  return () => {
    media.put = put;
  };
}

describe.each(testDatabases)('faults (%s)', (database) => {
  const t = useTestApp({ database });

  it('a media store that fails mid-post answers 500 JSON, keeps nothing, and recovers', async () => {
    const heal = breakWrites(t.app.deps.media, () => new Error('connection reset by the store'));
    const response = await postMemory(t, 'store down');
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      error: 'Internal server error',
      code: 'INTERNAL',
    });
    expect(await listed(t)).toEqual([]);
    expect(await t.storedMediaKeys('memories/')).toEqual([]);

    heal();
    expect((await postMemory(t, 'store back')).status).toBe(201);
    expect(await listed(t)).toEqual(['store back', 'store back']);
  });

  it('a full disk answers 503 with Retry-After, keeps nothing, and recovers', async () => {
    const before = await t.storedMediaKeys('memories/');
    const heal = breakWrites(t.app.deps.media, () =>
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
    );
    const response = await postMemory(t, 'disk full');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toEqual({
      error: 'Files cannot be stored right now; try again in a moment',
      code: 'SERVICE_UNAVAILABLE',
      messageId: 'unavailable.storage',
    });
    expect(await t.storedMediaKeys('memories/')).toEqual(before);
    expect(await listed(t)).not.toContain('disk full');

    heal();
    expect((await postMemory(t, 'disk freed')).status).toBe(201);
  });

  it('a database that fails answers 5xx JSON, leaves no file or row, and recovers', async () => {
    const before = await t.storedMediaKeys('memories/');
    // The tables vanish for a while, as they do for queries when the database is unreachable.
    await sql`alter table memories rename to memories_away`.execute(t.app.deps.db);
    await sql`alter table questions rename to questions_away`.execute(t.app.deps.db);
    try {
      const upload = await postMemory(t, 'db down');
      expect(upload.status).toBeGreaterThanOrEqual(500);
      expect(await upload.json()).toMatchObject({ code: 'INTERNAL' });
      const list = await fetch(`${t.url}/api/memory`);
      expect(list.status).toBeGreaterThanOrEqual(500);
      expect(await list.json()).toMatchObject({ error: 'Internal server error', code: 'INTERNAL' });
      // The files the upload stored before its rows failed are gone again.
      expect(await t.storedMediaKeys('memories/')).toEqual(before);
    } finally {
      await sql`alter table memories_away rename to memories`.execute(t.app.deps.db);
      await sql`alter table questions_away rename to questions`.execute(t.app.deps.db);
    }
    const health = await fetch(`${t.url}/api/health`);
    expect(health.status).toBe(200);
    expect((await postMemory(t, 'db back')).status).toBe(201);
    expect(await listed(t)).toContain('db back');
    expect(await listed(t)).not.toContain('db down');
  });
});
