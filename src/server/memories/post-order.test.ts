import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, joinAttendee } from '../../../tests/support/speakers.ts';
import { type TestApp, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { readZip } from '../../../tests/support/zip.ts';
import {
  type Memory,
  memoryListSchema,
  memoryPostResponseSchema,
  ownMemoriesSchema,
} from '../../shared/schemas/memory.ts';
import { idJustBefore, newId } from '../lib/ids.ts';
import { insertMemories } from './memory.repository.ts';

const PASSWORD = 'correct horse battery staple';

/** The four files of a post, told apart by their width: picked in this order. */
const WIDTHS = [21, 22, 23, 24];

const png = (width: number) =>
  sharp({ create: { width, height: 10, channels: 3, background: '#4c6ef5' } })
    .png()
    .toBuffer();

/** `Upload-Metadata`: each key with its value in base64. */
const metadataOf = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/** Sends one file of a post over tus (create, then every byte in one PATCH). */
async function sendResumably(
  t: TestApp,
  token: string,
  file: Buffer,
  metadata: Record<string, string>,
): Promise<void> {
  const tus = { 'tus-resumable': '1.0.0', ...bearer(token) };
  const created = await fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(file.length),
      'upload-metadata': metadataOf(metadata),
    },
  });
  expect(created.status).toBe(201);
  const finished = await fetch(`${t.url}${created.headers.get('location') ?? ''}`, {
    method: 'PATCH',
    headers: {
      ...tus,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    },
    body: new Uint8Array(file),
  });
  expect(finished.status).toBe(204);
}

describe.each(testDatabases)('the order of a post’s files on %s', (database) => {
  const t = useTestApp({
    database,
    env: { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '1000' },
  });
  let ada: string;
  let admin: string;

  beforeAll(async () => {
    ada = await joinAttendee(t.url, 'ada');
    admin = await adminToken(t.url, PASSWORD);
  });

  const widthsOf = (memories: Memory[], caption: string) =>
    memories.filter((m) => m.text === caption).map((m) => m.width);

  /** Every list a post's files are in, each in the order it answers them. */
  async function everyList(caption: string) {
    const gallery = memoryListSchema.parse(
      await (await fetch(`${t.url}/api/memory?limit=100`)).json(),
    );
    const adminList = memoryListSchema.parse(
      await (await fetch(`${t.url}/api/media?limit=100`, { headers: bearer(admin) })).json(),
    );
    const own = ownMemoriesSchema.parse(
      await (await fetch(`${t.url}/api/memories/mine`, { headers: bearer(ada) })).json(),
    ).ids;
    const byId = new Map(gallery.map((m) => [m._id, m]));
    return {
      gallery: widthsOf(gallery, caption),
      admin: widthsOf(adminList, caption),
      own: widthsOf(
        own.map((id) => byId.get(id)).filter((m): m is Memory => m !== undefined),
        caption,
      ),
    };
  }

  /** The widths of the ZIP's pictures of a post, in the archive's order, with their names. */
  async function inTheArchive(caption: string) {
    const response = await fetch(`${t.url}/api/admin/memories.zip`, { headers: bearer(admin) });
    expect(response.status).toBe(200);
    const entries = readZip(Buffer.from(await response.arrayBuffer())).filter(
      (entry) => entry.name.replace(/^.* - /, '').replace(/( \(\d+\))?\.\w+$/, '') === caption,
    );
    return Promise.all(
      entries.map(async (entry) => ({
        width: (await sharp(entry.data).metadata()).width,
        name: entry.name.replace(/^.* - /, ''),
      })),
    );
  }

  /** Pages of the gallery of two memories at a time, as a phone scrolling it reads them. */
  async function pagedGallery(caption: string): Promise<(number | null)[]> {
    const seen: Memory[] = [];
    let before: string | undefined;
    for (let guard = 0; guard < 100; guard += 1) {
      const query = new URLSearchParams({ limit: '2' });
      if (before) query.set('before', before);
      const page = memoryListSchema.parse(
        await (await fetch(`${t.url}/api/memory?${query.toString()}`)).json(),
      );
      seen.push(...page);
      if (page.length < 2) break;
      before = page.at(-1)?._id;
    }
    expect(new Set(seen.map((m) => m._id)).size).toBe(seen.length);
    return widthsOf(seen, caption);
  }

  const archiveOrder = [
    { width: 21, name: 'Four picked.png' },
    { width: 22, name: 'Four picked (2).png' },
    { width: 23, name: 'Four picked (3).png' },
    { width: 24, name: 'Four picked (4).png' },
  ];

  it('keeps a post of four in the order picked: the answer, every list, pages and the ZIP', async () => {
    const body = new FormData();
    body.append('caption', 'Four picked');
    body.append('username', 'ada');
    for (const width of WIDTHS) {
      body.append('files', new Blob([new Uint8Array(await png(width))]), `${width}.png`);
    }
    const response = await fetch(`${t.url}/api/memories`, {
      method: 'POST',
      body,
      headers: bearer(ada),
    });
    expect(response.status).toBe(201);
    const answer = memoryPostResponseSchema.parse(await response.json()).memories;
    expect(answer.map((m) => m.width)).toEqual(WIDTHS);

    expect(await everyList('Four picked')).toEqual({ gallery: WIDTHS, admin: WIDTHS, own: WIDTHS });
    expect(await pagedGallery('Four picked')).toEqual(WIDTHS);
    expect(await inTheArchive('Four picked')).toEqual(archiveOrder);
  });

  it('keeps a post sent one file at a time over tus in the order its files were sent', async () => {
    const postId = newId();
    // Another post made between the files stays out of the post's run in every list.
    for (const [index, width] of WIDTHS.entries()) {
      await sendResumably(t, ada, await png(width), {
        filename: `${width}.png`,
        filetype: 'image/png',
        caption: 'Four picked, one by one',
        username: 'ada',
        postId,
      });
      if (index === 1) {
        await sendResumably(t, ada, await png(30), {
          filename: 'between.png',
          filetype: 'image/png',
          caption: 'In between',
          username: 'ada',
        });
      }
    }
    const lists = await everyList('Four picked, one by one');
    expect(lists).toEqual({ gallery: WIDTHS, admin: WIDTHS, own: WIDTHS });
    const gallery = memoryListSchema.parse(
      await (await fetch(`${t.url}/api/memory?limit=100`)).json(),
    );
    // The post keeps the place of its first file: the post made meanwhile is newer.
    const captions = gallery.map((m) => m.text).filter((text) => text !== 'Four picked');
    expect(captions.slice(0, 5)).toEqual([
      'In between',
      ...WIDTHS.map(() => 'Four picked, one by one'),
    ]);
    expect(await pagedGallery('Four picked, one by one')).toEqual(WIDTHS);
    // Each file's name has its own time (its upload finished then): the order is what counts.
    const archived = await inTheArchive('Four picked, one by one');
    expect(archived.map(({ width }) => width)).toEqual(WIDTHS);
  });
});

describe('the ZIP of many posts', () => {
  const t = useTestApp({ env: { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD } });

  it('keeps each post in the order picked across its pages of 100, no post split or repeated', async () => {
    // 35 posts of three files, made as the app makes them: the first file takes the newest id.
    const rows = [];
    for (let post = 0; post < 35; post += 1) {
      const postId = newId();
      const ids = [newId(), newId(), newId()].reverse();
      for (const [index, id] of ids.entries()) {
        // Each file's bytes say which it is: the post and its place in it.
        await t.app.deps.media.put(
          `memories/${id}-${index + 1}.png`,
          Buffer.from(`${post}:${index + 1}`),
          'image/png',
        );
        rows.push({
          id,
          postId,
          username: 'ada',
          text: `Post ${post}`,
          contentType: 'image/png',
          mediaKey: `memories/${id}-${index + 1}.png`,
          thumbnailKey: null,
          originalKey: `memories/${id}-${index + 1}.png`,
          width: 10,
          height: 10,
          sizeBytes: 1,
          createdAt: new Date(Date.UTC(2026, 10, 22, 9, 0, post)).toISOString(),
          metadataStripped: true,
          status: 'published' as const,
        });
      }
    }
    await insertMemories(t.app.deps.db, rows);
    const admin = await adminToken(t.url, PASSWORD);
    const response = await fetch(`${t.url}/api/admin/memories.zip`, { headers: bearer(admin) });
    expect(response.status).toBe(200);
    const entries = readZip(Buffer.from(await response.arrayBuffer())).map(
      (entry) => `${entry.data.toString()} ${entry.name.replace(/^.* - /, '')}`,
    );
    expect(entries).toEqual(
      Array.from({ length: 35 }, (_, post) => [
        `${post}:1 Post ${post}.png`,
        `${post}:2 Post ${post} (2).png`,
        `${post}:3 Post ${post} (3).png`,
      ]).flat(),
    );
  });
});

describe('idJustBefore', () => {
  it('answers a UUIDv7 that sorts just before the id, across every field', () => {
    const cases = [
      ['0193a1f0-0000-7000-8000-000000000005', '0193a1f0-0000-7000-8000-000000000004'],
      // The random field's low end borrows from the one before it; version and variant stay.
      ['0193a1f0-0000-7001-8000-000000000000', '0193a1f0-0000-7000-bfff-ffffffffffff'],
      ['0193a1f0-0001-7000-8000-000000000000', '0193a1f0-0000-7fff-bfff-ffffffffffff'],
    ];
    for (const [id, before] of cases) expect(idJustBefore(id ?? '', 1)).toBe(before);
    const id = newId();
    const earlier = idJustBefore(id, 1000);
    expect(earlier < id).toBe(true);
    expect(earlier).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
