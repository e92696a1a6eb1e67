import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  type Memory,
  memoryListSchema,
  memoryPostResponseSchema,
} from '../../shared/schemas/memory.ts';
import { type TestApp, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';

const UPLOADS = 500;
const CLIENTS = 50;

/** A distinct flat colour for every upload: PNG stays PNG and lossless, so it comes back exact. */
const colourOf = (index: number): [number, number, number] => [
  index % 250,
  50 + Math.floor(index / 250) * 100,
  (index * 7) % 256,
];

const imageOf = (index: number) => {
  const [r, g, b] = colourOf(index);
  return sharp({ create: { width: 24, height: 16, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
};

async function upload(t: TestApp, client: number, index: number): Promise<Response> {
  const body = new FormData();
  body.append('caption', `upload ${index}`);
  body.append('username', `client-${client}`);
  body.append(
    'files',
    new Blob([new Uint8Array(await imageOf(index))], { type: 'image/png' }),
    // Every client sends the same file name, as phones do (IMG_0001.png).
    'IMG_0001.png',
  );
  return fetch(`${t.url}/api/memories`, {
    method: 'POST',
    body,
    headers: { 'x-confab-user': `client-${client}` },
  });
}

async function listAll(t: TestApp): Promise<Memory[]> {
  const all: Memory[] = [];
  let before: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ limit: '200', ...(before ? { before } : {}) });
    const response = await fetch(`${t.url}/api/memory?${query}`);
    const page = memoryListSchema.parse(await response.json());
    all.push(...page);
    if (page.length < 200) return all;
    before = page.at(-1)?._id;
  }
}

describe.each(testDatabases)('concurrent uploads keep every file (%s)', (database) => {
  const t = useTestApp({
    database,
    env: { WRITE_RATE_LIMIT: '100000', WRITE_RATE_LIMIT_PER_ADDRESS: '100000' },
  });

  it(`${UPLOADS} uploads from ${CLIENTS} parallel clients: each listed, with its own file`, async () => {
    const answered = new Map<number, Memory>();
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let index = client; index < UPLOADS; index += CLIENTS) {
          const response = await upload(t, client, index);
          const body: unknown = await response.json();
          if (response.status !== 201) {
            failures.push(`${index}: ${response.status} ${JSON.stringify(body)}`);
            continue;
          }
          const [memory] = memoryPostResponseSchema.parse(body).memories;
          if (memory) answered.set(index, memory);
        }
      }),
    );
    expect(failures).toEqual([]);
    expect(answered.size).toBe(UPLOADS);

    // Every answered upload is listed, once.
    const listed = await listAll(t);
    const listedIds = new Set(listed.map((memory) => memory._id));
    expect(listedIds.size).toBe(listed.length);
    for (const memory of answered.values()) expect(listedIds.has(memory._id)).toBe(true);

    // No two memories share a file.
    const files = listed.flatMap((memory) => [memory.media, memory.thumbnail ?? '']);
    expect(new Set(files).size).toBe(files.length);
    // And the store holds exactly those files: nothing lost, nothing left over.
    const stored = await t.storedMediaKeys('memories/');
    expect(stored).toEqual(files.map((url) => url.replace(/^\/media\//, '')).sort());

    // Each memory's media decodes to its own colour.
    const wrong: string[] = [];
    const entries = [...answered.entries()];
    for (let start = 0; start < entries.length; start += 25) {
      await Promise.all(
        entries.slice(start, start + 25).map(async ([index, memory]) => {
          expect(memory.text).toBe(`upload ${index}`);
          const response = await fetch(`${t.url}${memory.media}`);
          expect(response.status, memory.media).toBe(200);
          const bytes = Buffer.from(await response.arrayBuffer());
          const { channels } = await sharp(bytes).stats();
          const actual = channels.slice(0, 3).map((channel) => Math.round(channel.mean));
          if (actual.join() !== colourOf(index).join()) {
            wrong.push(`${index}: ${actual.join()} instead of ${colourOf(index).join()}`);
          }
        }),
      );
    }
    expect(wrong).toEqual([]);
  }, 180_000);
});
