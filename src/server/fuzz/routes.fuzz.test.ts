import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryListSchema, memoryPostResponseSchema } from '../../shared/schemas/memory.ts';
import { speakerCreatedResponseSchema, speakerListSchema } from '../../shared/schemas/speaker.ts';
import { type TestApp, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import {
  type FuzzRequest,
  fuzzBody,
  fuzzHeaders,
  fuzzMethod,
  fuzzPath,
  send,
  targetedRequest,
} from '../../../tests/support/http-fuzz.ts';

/** Cases per database; `npm run fuzz` sets FUZZ_RUNS=100000. FUZZ_SEED replays a run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const PASSWORD = 'fuzzing admin password';

/** Every file under `dir`, relative, with its size and modification time. */
async function tree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const stat = await fs.stat(full);
    files.set(path.relative(dir, full), `${stat.size}:${stat.mtimeMs}`);
  }
  return files;
}

/** Media, the database and its journal change as the fuzzer writes; everything else must not. */
const isExpectedToChange = (file: string) =>
  file.startsWith(`media${path.sep}`) ||
  // The process's own heartbeat (decision 126).
  file.startsWith(`processes${path.sep}`) ||
  /^confab\.sqlite(-wal|-shm|-journal)?$/.test(file);

async function pngOf(background: string): Promise<Buffer> {
  return sharp({ create: { width: 20, height: 20, channels: 3, background } })
    .png()
    .toBuffer();
}

/** Every file a memory (of any status: the admin's list) or a speaker names. */
async function allMediaUrls(t: TestApp, token: string): Promise<Set<string>> {
  const urls = new Set<string>();
  let before: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ limit: '200', ...(before ? { before } : {}) });
    const answer = await fetch(`${t.url}/api/media?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const page = memoryListSchema.parse(await answer.json());
    for (const memory of page) {
      urls.add(memory.media);
      if (memory.thumbnail) urls.add(memory.thumbnail);
    }
    if (page.length < 200) break;
    before = page.at(-1)?._id;
  }
  const speakers = speakerListSchema.parse(await (await fetch(`${t.url}/speakers`)).json());
  for (const speaker of speakers) {
    urls.add(speaker.picture);
    if (speaker.avatar) urls.add(speaker.avatar);
  }
  const { logoUrl } = publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());
  if (logoUrl) urls.add(logoUrl);
  return urls;
}

describe.each(testDatabases)('fuzzing every route over HTTP (%s)', (database) => {
  const t = useTestApp({
    database,
    env: {
      ADMIN_PASSWORD: PASSWORD,
      WRITE_RATE_LIMIT: '1000000',
      WRITE_RATE_LIMIT_PER_ADDRESS: '1000000',
      MAX_UPLOAD_MB: '1',
      TRUST_PROXY: 'true',
      // FUZZ_LOG_LEVEL=error shows the server's side of a failure.
      LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent',
    },
  });
  let secret: string;
  let before: Map<string, string>;
  let requests: fc.Arbitrary<FuzzRequest>;
  let adminToken: string;

  beforeAll(async () => {
    // A file next to the media that no answer may ever contain.
    secret = `secret-${randomBytes(12).toString('hex')}`;
    await fs.writeFile(path.join(t.dataDir, 'secret.txt'), secret);

    const images = await Promise.all(['#e03131', '#2f9e44', '#1971c2'].map(pngOf));
    const memoryForm = new FormData();
    memoryForm.append('caption', 'seed');
    memoryForm.append('username', 'seed');
    memoryForm.append('files', new Blob([new Uint8Array(images[0] ?? [])]), 'a.png');
    const posted = await fetch(`${t.url}/api/memories`, { method: 'POST', body: memoryForm });
    const memories = memoryPostResponseSchema.parse(await posted.json()).memories;
    const speakerForm = new FormData();
    speakerForm.append('name', 'Seed Speaker');
    speakerForm.append('stack', 'Fuzz');
    speakerForm.append('bio', 'Seeds the fuzzer.');
    speakerForm.append('picture', new Blob([new Uint8Array(images[1] ?? [])]), 'p.png');
    const created = await fetch(`${t.url}/api/speakersadd`, { method: 'POST', body: speakerForm });
    const { speaker } = speakerCreatedResponseSchema.parse(await created.json());
    const login = await fetch(`${t.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    adminToken = token;

    const media = [...memories.flatMap((m) => [m.media, m.thumbnail ?? '']), speaker.picture]
      .filter(Boolean)
      .map((url) => url.replace(/^\/media\//, ''));
    const random = fc
      .tuple(
        fuzzMethod,
        fuzzPath({
          memory: memories.map((m) => m._id),
          speaker: [speaker._id],
          speakerUsername: [speaker.username],
          media,
        }),
        fuzzHeaders(token),
        fuzzBody([speaker._id], images),
      )
      .map(([method, path, headers, { contentType, body }]) => ({
        method,
        path,
        headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
        body,
      }));
    requests = fc.oneof(
      { arbitrary: random, weight: 4 },
      {
        arbitrary: targetedRequest(
          { memory: memories.map((m) => m._id), speaker: [speaker._id] },
          images,
          token,
        ),
        weight: 1,
      },
    );
    before = await tree(t.dataDir);
  });

  it(`answers ${RUNS} hostile requests without a 5xx, leaking or leaving nothing`, async () => {
    // Printed so a failure can be replayed: FUZZ_SEED=<seed> npx vitest run src/server/fuzz
    console.log(`[fuzz] ${database}: ${RUNS} cases, seed ${SEED}`);
    let cases = 0;
    const statuses = new Map<number, number>();
    const property = fc.asyncProperty(requests, async (request) => {
      const { method, path: requestPath } = request;
      const answer = await send(t.url, request);
      expect(
        answer.status,
        `${method} ${requestPath}: ${answer.body.toString().slice(0, 300)}`,
      ).toBeLessThan(500);
      expect(answer.body.includes(secret)).toBe(false);
      expect(answer.body.includes('SQLite format 3')).toBe(false);
      if (answer.status >= 400 && method !== 'HEAD' && answer.body.length > 0) {
        const type = answer.headers['content-type'] ?? '';
        // socket.io's own errors have their protocol's shape; everything else has ours.
        if (type.includes('json') && !requestPath.startsWith('/socket.io/')) {
          expect(JSON.parse(answer.body.toString()), requestPath).toHaveProperty('error');
        }
      }
      cases += 1;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (cases % 500 === 0) {
        expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
      }
    });
    await fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
    console.log(
      `[fuzz] ${database}: statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')}`,
    );

    // Still answering.
    const health = await fetch(`${t.url}/api/health`);
    expect(health.status).toBe(200);

    // Nothing outside the media written or removed; the secret untouched.
    const after = await tree(t.dataDir);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (file) => !isExpectedToChange(file) && before.get(file) !== after.get(file),
    );
    expect(changed).toEqual([]);
    expect(await fs.readFile(path.join(t.dataDir, 'secret.txt'), 'utf8')).toBe(secret);

    // No temporary file left, and every stored file belongs to a memory, a speaker or the logo.
    expect(await fs.readdir(path.join(t.dataDir, 'uploads'))).toEqual([]);
    const tmp = path.join(t.dataDir, 'media', '.tmp');
    expect(await fs.readdir(tmp).catch(() => [])).toEqual([]);
    const referenced = await allMediaUrls(t, adminToken);
    const stored = [
      ...(await t.storedMediaKeys('memories/')),
      ...(await t.storedMediaKeys('speakers/')),
      ...(await t.storedMediaKeys('settings/')),
    ];
    expect(stored.filter((key) => !referenced.has(`/media/${key}`))).toEqual([]);
  }, 900_000);
});
