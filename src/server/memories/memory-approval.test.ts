import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import {
  type Memory,
  memoryListSchema,
  memoryPostResponseSchema,
  memorySchema,
  memoryUpdateResponseSchema,
} from '../../shared/schemas/memory.ts';
import {
  adminToken,
  collect,
  joinAttendee,
  watchingSocket,
} from '../../../tests/support/speakers.ts';
import {
  type TestApp,
  startTestApp,
  testDatabases,
  useTestApp,
} from '../../../tests/support/test-app.ts';
import { readZip } from '../../../tests/support/zip.ts';
import { findMemory } from './memory.repository.ts';

const PASSWORD = 'approval admin password';
const PUBLIC_URL = 'https://confab.example.com';

async function png(color: string): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
    .png()
    .toBuffer();
}

async function post(t: TestApp, caption: string, username: string, files: Buffer[]) {
  const form = new FormData();
  form.append('caption', caption);
  form.append('username', username);
  for (const [index, file] of files.entries()) {
    form.append('files', new Blob([new Uint8Array(file)]), `photo-${index}.png`);
  }
  const response = await fetch(`${t.url}/api/memories`, {
    method: 'POST',
    body: form,
    headers: { 'x-confab-user': username },
  });
  expect(response.status).toBe(201);
  return memoryPostResponseSchema.parse(await response.json());
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.each(testDatabases)(
  'approval of memories, the archive and share pages (%s)',
  (database) => {
    const t = useTestApp({
      database,
      client: {
        'index.html':
          '<!doctype html><html><head><title>Confab</title><meta name="description" content="app" /></head><body></body></html>',
      },
      env: {
        ADMIN_PASSWORD: PASSWORD,
        PUBLIC_URL,
        WRITE_RATE_LIMIT: '10000',
        TRUST_PROXY: 'true',
      },
    });
    let admin: string;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const setModeration = async (on: boolean) => {
      const response = await fetch(`${t.url}/api/admin/settings`, {
        method: 'PUT',
        headers: { ...bearer(admin), 'content-type': 'application/json' },
        body: JSON.stringify({ moderateMemories: on }),
      });
      expect(response.status).toBe(200);
    };
    const publicList = async () =>
      memoryListSchema.parse(await (await fetch(`${t.url}/api/memory?limit=200`)).json());
    const adminList = async (query = '') =>
      memoryListSchema.parse(
        await (await fetch(`${t.url}/api/media${query}`, { headers: bearer(admin) })).json(),
      );

    beforeAll(async () => {
      admin = await adminToken(t.url, PASSWORD);
    });

    it('keeps memories posted while approval is on out of public lists and events until approved', async () => {
      await setModeration(true);
      const everyone = await watchingSocket(t.url, []);
      const moderators = await watchingSocket(t.url, [{ room: 'moderation', token: admin }]);
      const publicCreated = collect(everyone, 'memoryCreated');
      const publicUpdated = collect(everyone, 'memoryUpdated');
      const moderatorCreated = collect(moderators, 'memoryCreated');
      try {
        const answer = await post(t, 'Waiting in line', 'pat', [await png('#e03131')]);
        const [memory] = answer.memories;
        if (!memory) throw new Error('no memory');
        expect(memory.status).toBe('pending');
        expect(answer.message).toBe(
          'Memory received! It will appear in the gallery once approved.',
        );

        // Not public: not listed, not readable, not announced to everyone.
        expect((await publicList()).map((m) => m._id)).not.toContain(memory._id);
        expect((await fetch(`${t.url}/api/memory/${memory._id}`)).status).toBe(404);
        const share = await fetch(`${t.url}/m/${memory._id}`, { headers: { accept: 'text/html' } });
        expect(share.status).toBe(404);
        expect(await share.text()).not.toContain('og:title');
        // The admin sees it, in the pending list and in the list of all; the moderation room hears of it.
        expect((await adminList('?status=pending')).map((m) => m._id)).toEqual([memory._id]);
        expect((await adminList()).map((m) => m._id)).toContain(memory._id);
        expect((await adminList('?status=published')).map((m) => m._id)).not.toContain(memory._id);
        await until(() => moderatorCreated.length === 1);
        expect(moderatorCreated[0]?.memory.status).toBe('pending');

        // The public list's tag, before the approval.
        const before = await fetch(`${t.url}/api/memory?limit=200`);
        const tag = before.headers.get('etag') ?? '';
        expect(tag).not.toBe('');

        const approved = await fetch(`${t.url}/api/media/${memory._id}`, {
          method: 'PATCH',
          headers: { ...bearer(admin), 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'published' }),
        });
        expect(approved.status).toBe(200);
        expect(approved.headers.get('cache-control')).toBe('no-store');
        const { memory: published } = memoryUpdateResponseSchema.parse(await approved.json());
        expect(published).toEqual({ ...memory, status: 'published' });

        // Live everywhere: the event, the lists (a new tag), the memory itself.
        await until(() => publicUpdated.length === 1);
        expect(publicUpdated[0]?.memory).toEqual(published);
        const after = await fetch(`${t.url}/api/memory?limit=200`, {
          headers: { 'if-none-match': tag },
        });
        expect(after.status).toBe(200);
        expect(memoryListSchema.parse(await after.json()).map((m) => m._id)).toContain(memory._id);
        expect(
          memorySchema.parse(await (await fetch(`${t.url}/api/memory/${memory._id}`)).json()),
        ).toEqual(published);
        expect(await adminList('?status=pending')).toEqual([]);

        // Approving again changes nothing and says nothing.
        const again = await fetch(`${t.url}/api/media/${memory._id}`, {
          method: 'PATCH',
          headers: { ...bearer(admin), 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'published' }),
        });
        expect(again.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 700));
        expect(publicUpdated).toHaveLength(1);
        // Nothing pending ever reached the public socket.
        expect(publicCreated).toEqual([]);
      } finally {
        everyone.disconnect();
        moderators.disconnect();
        await setModeration(false);
      }
    });

    it('publishes at once, as before, while approval is off', async () => {
      const { memories, message } = await post(t, 'Straight in', 'quinn', [await png('#2f9e44')]);
      expect(message).toBe('Memory shared successfully!');
      expect(memories[0]?.status).toBe('published');
      expect((await publicList()).map((m) => m._id)).toContain(memories[0]?._id);
    });

    it('refuses an approval without the admin token, or with a wrong or forged one, changing nothing', async () => {
      await setModeration(true);
      const { memories } = await post(t, 'Not yet', 'rae', [await png('#1971c2')]);
      await setModeration(false);
      const id = memories[0]?._id ?? '';
      const attendee = await joinAttendee(t.url, 'rae');
      const [head, payload] = admin.split('.');
      const forged = `${head}.${payload}.${'A'.repeat(43)}`;
      const body = JSON.stringify({ status: 'published' });
      for (const headers of [
        {},
        bearer(attendee),
        bearer(forged),
        bearer('x.y.z'),
        { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` },
      ]) {
        const response = await fetch(`${t.url}/api/media/${id}`, {
          method: 'PATCH',
          headers: { ...headers, 'content-type': 'application/json' },
          body,
        });
        expect(response.status).toBe(401);
        expect(await response.json()).toHaveProperty('error');
      }
      // Hostile or wrong bodies: a 4xx with a JSON error, never a 5xx.
      const attempts: [string, string | undefined, number][] = [
        [JSON.stringify({ status: 'pending' }), 'application/json', 400],
        [JSON.stringify({ status: 'hidden' }), 'application/json', 400],
        [JSON.stringify({ status: 'published', text: 'changed' }), 'application/json', 400],
        [JSON.stringify({}), 'application/json', 400],
        ['{"status":', 'application/json', 400],
        [JSON.stringify({ status: 'published', pad: 'x'.repeat(5000) }), 'application/json', 413],
        ['status=published', 'application/x-www-form-urlencoded', 415],
      ];
      for (const [text, type, status] of attempts) {
        const response = await fetch(`${t.url}/api/media/${id}`, {
          method: 'PATCH',
          headers: { ...bearer(admin), ...(type ? { 'content-type': type } : {}) },
          body: text,
        });
        expect(response.status, text.slice(0, 40)).toBe(status);
        expect(await response.json()).toHaveProperty('error');
      }
      for (const [path, status] of [
        ['/api/media/not-an-id', 400],
        ['/api/media/01a203b3-449d-7058-8028-08e51d50ab1e', 404],
      ] as const) {
        const response = await fetch(`${t.url}${path}`, {
          method: 'PATCH',
          headers: { ...bearer(admin), 'content-type': 'application/json' },
          body,
        });
        expect(response.status).toBe(status);
      }
      expect((await findMemory(t.app.deps.db, id))?.memory.status).toBe('pending');
      expect((await publicList()).map((m) => m._id)).not.toContain(id);
      // Deleting a pending memory works as for any other.
      const deleted = await fetch(`${t.url}/api/media/${id}`, {
        method: 'DELETE',
        headers: bearer(admin),
      });
      expect(deleted.status).toBe(200);
      expect(await adminList('?status=pending')).toEqual([]);
    });

    it('refuses a bad status filter', async () => {
      const response = await fetch(`${t.url}/api/media?status=hidden`, { headers: bearer(admin) });
      expect(response.status).toBe(400);
    });

    it('streams every published memory as a ZIP, named by date, username and caption', async () => {
      await setModeration(true);
      const waiting = await post(t, 'Still waiting', 'sam', [await png('#f08c00')]);
      await setModeration(false);
      await post(t, 'Two: from the stage / back row?', 'tess', [
        await png('#5f3dc4'),
        await png('#0c8599'),
      ]);

      const refused = await fetch(`${t.url}/api/admin/memories.zip`);
      expect(refused.status).toBe(401);
      const wrongKind = await fetch(`${t.url}/api/admin/memories.zip`, {
        headers: bearer(await joinAttendee(t.url, 'sam')),
      });
      expect(wrongKind.status).toBe(401);

      const response = await fetch(`${t.url}/api/admin/memories.zip`, { headers: bearer(admin) });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/zip');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="memories-\d{4}-\d{2}-\d{2}\.zip"$/,
      );
      // Streamed: no length known in advance.
      expect(response.headers.get('content-length')).toBeNull();
      const entries = readZip(Buffer.from(await response.arrayBuffer()));

      const published = await publicList();
      expect(Number(response.headers.get('x-archive-files'))).toBe(published.length);
      expect(entries).toHaveLength(published.length);
      expect(entries.map((entry) => entry.name).join('\n')).not.toContain('Still waiting');
      expect(published.map((m) => m._id)).not.toContain(waiting.memories[0]?._id);
      // Each file is the one the app serves, byte for byte.
      const served = new Map<string, string>();
      for (const memory of published) {
        const bytes = Buffer.from(await (await fetch(`${t.url}${memory.media}`)).arrayBuffer());
        served.set(sha256(bytes), memory._id);
      }
      expect(new Set(entries.map((entry) => served.get(sha256(entry.data))))).toEqual(
        new Set(published.map((m) => m._id)),
      );
      const names = entries.map((entry) => entry.name);
      expect(new Set(names).size).toBe(names.length);
      const tess = names.filter((name) => name.includes('tess'));
      expect(tess).toHaveLength(2);
      for (const name of tess) {
        expect(name).toMatch(
          /^\d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2} tess - Two from the stage back row( \(2\))?\.png$/,
        );
      }
    });

    it('answers an empty archive when nothing is published', async () => {
      const other = await startTestApp({ database, env: { ADMIN_PASSWORD: PASSWORD } });
      try {
        const token = await adminToken(other.url, PASSWORD);
        const response = await fetch(`${other.url}/api/admin/memories.zip`, {
          headers: bearer(token),
        });
        expect(response.status).toBe(200);
        expect(readZip(Buffer.from(await response.arrayBuffer()))).toEqual([]);
      } finally {
        await other.close();
      }
    });

    it('serves /m/:id with link-preview tags from PUBLIC_URL, never the Host header', async () => {
      const { memories } = await post(t, 'Keynote <b>"live"</b>', 'uma', [await png('#c2255c')]);
      const memory = memories[0] as Memory;
      const response = await fetch(`${t.url}/m/${memory._id}`, {
        headers: { accept: 'text/html', host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      expect(html).not.toContain('evil.example');
      expect(html).toContain(`<meta property="og:url" content="${PUBLIC_URL}/m/${memory._id}" />`);
      expect(html).toContain(`<meta property="og:image" content="${PUBLIC_URL}${memory.media}" />`);
      expect(html).toContain(`<meta name="twitter:card" content="summary_large_image" />`);
      expect(html).toContain(
        `<meta name="twitter:image" content="${PUBLIC_URL}${memory.media}" />`,
      );
      expect(html).toContain('<title>uma&#39;s memory at Confab</title>');
      expect(html).toContain('content="Keynote &lt;b&gt;&quot;live&quot;&lt;/b&gt;"');
      expect(html).not.toContain('<b>"live"</b>');
      // The page's own description gives way to the memory's.
      expect(html).not.toContain('content="app"');

      for (const path of ['/m/not-an-id', '/m/01a203b3-449d-7058-8028-08e51d50ab1e']) {
        const missing = await fetch(`${t.url}${path}`, { headers: { accept: 'text/html' } });
        expect(missing.status).toBe(404);
        expect(await missing.text()).not.toContain('og:');
      }
    });

    it('tells the client the wall interval and the public address', async () => {
      const response = await fetch(`${t.url}/api/admin/settings`, {
        method: 'PUT',
        headers: { ...bearer(admin), 'content-type': 'application/json' },
        body: JSON.stringify({ wallIntervalSeconds: 12 }),
      });
      expect(response.status).toBe(200);
      const config = publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());
      expect(config.wallIntervalSeconds).toBe(12);
      expect(config.publicUrl).toBe(PUBLIC_URL);
    });
  },
);
