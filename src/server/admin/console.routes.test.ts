import fs from 'node:fs/promises';
import sharp from 'sharp';
import { DEFAULT_REACTIONS } from '../../shared/schemas/reaction.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { brandCss } from '../../shared/brand-palette.ts';
import { errorResponseSchema } from '../../shared/errors.ts';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { adminStatsSchema, settingsResponseSchema } from '../../shared/schemas/settings.ts';
import {
  addSpeakerWithSecret,
  adminToken,
  askQuestion,
  call,
  collect,
  forged,
  joinAttendee,
  pngImage,
} from '../../../tests/support/speakers.ts';
import { seedMemories } from '../../../tests/support/seed-memories.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';
import { statsCsv } from './admin.service.ts';

const PASSWORD = 'console-admin-password';

/** A built page as Vite writes it, with the head the real one has. */
const BUILT_PAGE = [
  '<!doctype html><html lang="en" data-mantine-color-scheme="light"><head>',
  '<meta name="theme-color" content="#4c6ef5" />',
  '<meta name="application-name" content="Confab" />',
  '<link rel="icon" type="image/svg+xml" href="/logo.svg" />',
  '<title>Confab</title>',
  '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
  '</head><body><div id="root"></div></body></html>',
].join('\n');
const JOIN_MARKUP = '<main><img src="%LOGO_URL%"/><h1>Join the Fun at %EVENT_NAME%!</h1></main>';

const logoForm = (bytes: Buffer, name = 'logo.png', type = 'image/png') => {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};

describe.each(testDatabases)('the organiser console on %s', (database) => {
  const t = useTestApp({
    database,
    env: { ADMIN_PASSWORD: PASSWORD, QUESTIONS_PER_MINUTE: '600' },
    client: {
      'index.html': BUILT_PAGE,
      'assets/index-abc.css': '.x{}',
      '.prerendered/join.html': JOIN_MARKUP,
    },
  });
  const watch = useWatchingSockets(t);
  const pageOf = async (path: string) =>
    (await fetch(`${t.url}${path}`, { headers: { accept: 'text/html' } })).text();
  let admin: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
  });

  describe('GET /api/admin/stats and stats.csv', () => {
    it('counts everything, per speaker (questions and votes) and memories per hour', async () => {
      const ada = (await addSpeakerWithSecret(t.url, 'Ada Lovelace')).speaker;
      const alan = (await addSpeakerWithSecret(t.url, 'Alan Turing')).speaker;
      const grace = await joinAttendee(t.url, 'grace');
      const linus = await joinAttendee(t.url, 'linus');
      const asked = [];
      for (const text of ['Engines?', 'Notes?', 'Poetry?']) {
        asked.push(
          await askQuestion(t.url, { speakerId: ada._id, question: text, askerUsername: 'grace' }),
        );
      }
      await askQuestion(t.url, { speakerId: alan._id, question: 'Enigma?', askerUsername: 'x' });
      for (const token of [grace, linus]) {
        const vote = await call(t.url, 'PUT', `/api/questions/${asked[0]?._id}/vote`, { token });
        expect(vote.status).toBe(200);
      }
      await seedMemories(t.app.deps, [
        { username: 'grace', text: 'one' },
        { username: 'linus', text: 'two' },
      ]);
      t.app.deps.lists.forget('memories');

      const response = await call(t.url, 'GET', '/api/admin/stats', { token: admin });
      expect(response.status).toBe(200);
      const stats = adminStatsSchema.parse(await response.json());
      expect(stats).toMatchObject({
        memories: 2,
        questions: 4,
        pendingQuestions: 0,
        speakers: 2,
        attendees: 2,
        votes: 2,
      });
      expect(stats.perSpeaker).toEqual([
        { speakerId: ada._id, name: 'Ada Lovelace', questions: 3, votes: 2 },
        { speakerId: alan._id, name: 'Alan Turing', questions: 1, votes: 0 },
      ]);
      const hour = `${new Date().toISOString().slice(0, 13)}:00:00.000Z`;
      expect(stats.memoriesPerHour).toEqual([{ hour, memories: 2 }]);

      const csv = await call(t.url, 'GET', '/api/admin/stats.csv', { token: admin });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toContain('stats.csv');
      const lines = (await csv.text()).replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe('section,name,questions,votes,value');
      expect(lines).toContain('total,memories,,,2');
      expect(lines).toContain('total,attendees who joined,,,2');
      expect(lines).toContain('speaker,Ada Lovelace,3,2,');
      expect(lines).toContain(`memories per hour,${hour},,,2`);
    });

    it('refuses a missing, wrong or forged token', async () => {
      const attendee = await joinAttendee(t.url, 'mallory');
      for (const path of ['/api/admin/stats', '/api/admin/stats.csv']) {
        for (const token of [undefined, 'nonsense', attendee, forged(admin)]) {
          const response = await call(t.url, 'GET', path, { token });
          expect(response.status, `${path} ${token}`).toBe(401);
          expect(typeof ((await response.json()) as { error?: unknown }).error).toBe('string');
        }
      }
    });
  });

  describe('settings', () => {
    it('answers the logo beside the settings; refuses a malformed colour with a 400', async () => {
      const read = settingsResponseSchema.parse(
        await (await call(t.url, 'GET', '/api/admin/settings', { token: admin })).json(),
      );
      expect(read.logoUrl).toBeNull();
      for (const primaryColor of ['red', '#12345', '#1234567', '#gggggg', '', 42, null]) {
        const response = await call(t.url, 'PUT', '/api/admin/settings', {
          token: admin,
          body: { primaryColor },
        });
        expect(response.status, String(primaryColor)).toBe(400);
        expect(typeof ((await response.json()) as { error?: unknown }).error).toBe('string');
      }
      for (const body of [{ logoUrl: '/x.png' }, { eventName: 'x'.repeat(61) }]) {
        const response = await call(t.url, 'PUT', '/api/admin/settings', { token: admin, body });
        expect(response.status, JSON.stringify(body)).toBe(400);
      }
    });

    it('tells every open page at once, and every page, title and config carry the change', async () => {
      const events = collect(await watch(), 'settingsUpdated');
      const before = await fetch(`${t.url}/api/config`);
      const etag = before.headers.get('etag') ?? '';
      expect(before.headers.get('cache-control')).toBe('no-cache');
      expect(
        (await fetch(`${t.url}/api/config`, { headers: { 'if-none-match': etag } })).status,
      ).toBe(304);
      expect(await pageOf('/')).toContain('Join the Fun at Confab!');

      const name = 'DevConf <2026> & "Friends"';
      const changed = await call(t.url, 'PUT', '/api/admin/settings', {
        token: admin,
        body: { eventName: name, primaryColor: '#C2255C', wallIntervalSeconds: 15 },
      });
      expect(changed.status).toBe(200);
      await expect.poll(() => events.length).toBe(1);
      expect(events[0]).toEqual({
        settings: {
          eventName: name,
          primaryColor: '#c2255c',
          logoUrl: null,
          wallIntervalSeconds: 15,
          timezone: 'UTC',
          privacyNotice: '',
          dataKeptUntil: null,
          reactions: DEFAULT_REACTIONS,
          allowAnonymousQuestions: false,
          languages: ['en', 'fr', 'de', 'es', 'pt', 'ar', 'ja'],
          defaultLanguage: 'en',
        },
      });

      const after = await fetch(`${t.url}/api/config`, { headers: { 'if-none-match': etag } });
      expect(after.status).toBe(200);
      expect(publicConfigSchema.parse(await after.json())).toMatchObject({
        eventName: name,
        primaryColor: '#c2255c',
        wallIntervalSeconds: 15,
      });

      const escaped = 'DevConf &lt;2026&gt; &amp; &quot;Friends&quot;';
      const join = await pageOf('/');
      expect(join).toContain(`<title>${escaped}</title>`);
      expect(join).toContain(`<meta name="application-name" content="${escaped}" />`);
      expect(join).toContain('<meta name="theme-color" content="#c2255c" />');
      expect(join).toContain(`<style id="confab-brand">${brandCss('#c2255c')}</style>`);
      expect(join).toContain(`Join the Fun at ${escaped}!`);
      expect(join).not.toContain('<2026>');
      const home = await pageOf('/home');
      expect(home).toContain(`<p class="app-header-name" dir="auto">${escaped}</p>`);
      expect(home).toContain(`<title>${escaped}</title>`);

      await call(t.url, 'PUT', '/api/admin/settings', {
        token: admin,
        body: { eventName: 'Confab', primaryColor: '#4c6ef5', wallIntervalSeconds: 8 },
      });
      expect(await pageOf('/')).toContain('Join the Fun at Confab!');
    });
  });

  describe('GET /logo/{rrggbb}.svg', () => {
    it('answers the app’s own logo in the colour its address names, cached for good', async () => {
      const response = await fetch(`${t.url}/logo/e8590c.svg`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const svg = await response.text();
      expect(svg).toContain('fill="#e8590c"');
      expect(svg).not.toContain('#4c6ef5');
      const etag = response.headers.get('etag') ?? '';
      expect(etag).not.toBe('');
      const again = await fetch(`${t.url}/logo/e8590c.svg`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      // The default colour's is the picture shipped as public/logo.svg.
      const shipped = await fs.readFile('src/client/public/logo.svg', 'utf8');
      expect(await (await fetch(`${t.url}/logo/4c6ef5.svg`)).text()).toBe(shipped.trim());
      for (const bad of [
        'E8590C.svg',
        'e8590c.png',
        'red.svg',
        'e8590c0.svg',
        '%3Cscript%3E.svg',
      ]) {
        const refused = await fetch(`${t.url}/logo/${bad}`);
        expect(refused.status, bad).toBe(404);
        expect(errorResponseSchema.parse(await refused.json()).code, bad).toBe('NOT_FOUND');
      }
    });
  });

  describe('PUT and DELETE /api/admin/settings/logo', () => {
    it('stores an image through the pipeline, replaces it, and removes it', async () => {
      const events = collect(await watch(), 'settingsUpdated');
      const response = await call(t.url, 'PUT', '/api/admin/settings/logo', {
        token: admin,
        form: logoForm(await pngImage(900, 600)),
      });
      expect(response.status).toBe(200);
      const settings = settingsResponseSchema.parse(await response.json());
      expect(settings.logoUrl).toMatch(/^\/media\/settings\/logo-[0-9a-f-]+\.webp$/);
      const image = await fetch(`${t.url}${settings.logoUrl}`);
      expect(image.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect(Math.max(meta.width, meta.height)).toBe(512);
      await expect.poll(() => events.at(-1)?.settings.logoUrl).toBe(settings.logoUrl);

      const config = publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());
      expect(config.logoUrl).toBe(settings.logoUrl);
      const join = await pageOf('/');
      expect(join).toContain(`<img src="${settings.logoUrl}"/>`);
      expect(join).toContain(`<meta name="confab-logo" content="${settings.logoUrl}" />`);
      expect(join).toContain(`<link rel="icon" href="${settings.logoUrl}" />`);
      expect(await pageOf('/home')).toContain(`src="${settings.logoUrl}"`);

      // A new logo replaces the old one: one file is left.
      const replaced = settingsResponseSchema.parse(
        await (
          await call(t.url, 'PUT', '/api/admin/settings/logo', {
            token: admin,
            form: logoForm(await pngImage(64, 64)),
          })
        ).json(),
      );
      expect(replaced.logoUrl).not.toBe(settings.logoUrl);
      expect(await t.storedMediaKeys('settings/')).toEqual([replaced.logoUrl?.slice(7)]);

      const removed = await call(t.url, 'DELETE', '/api/admin/settings/logo', { token: admin });
      expect(removed.status).toBe(200);
      expect(settingsResponseSchema.parse(await removed.json()).logoUrl).toBeNull();
      expect(await t.storedMediaKeys('settings/')).toEqual([]);
      // The app's own logo again, in the event's colour.
      const { primaryColor } = publicConfigSchema.parse(
        await (await fetch(`${t.url}/api/config`)).json(),
      );
      const own = `/logo/${primaryColor.slice(1).toLowerCase()}.svg`;
      expect(await pageOf('/')).toContain(`<img src="${own}"/>`);
      expect(await pageOf('/')).toContain(`<link rel="icon" type="image/svg+xml" href="${own}" />`);
      // Removing no logo is not an error.
      expect(
        (await call(t.url, 'DELETE', '/api/admin/settings/logo', { token: admin })).status,
      ).toBe(200);
    });

    it('refuses what is not an image (415), a damaged image (400) and too large a file (413)', async () => {
      const png = await pngImage(200, 200);
      const cases: [FormData, number][] = [
        [logoForm(Buffer.from('just some text, not a picture'), 'logo.png'), 415],
        [
          logoForm(
            Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
            'l.svg',
            'image/svg+xml',
          ),
          415,
        ],
        [logoForm(png.subarray(0, Math.floor(png.length / 2))), 400],
        [logoForm(Buffer.alloc(6 * 1024 * 1024, 1)), 413],
        [logoForm(Buffer.alloc(0)), 400],
        [new FormData(), 400],
      ];
      for (const [form, status] of cases) {
        const response = await call(t.url, 'PUT', '/api/admin/settings/logo', {
          token: admin,
          form,
        });
        expect(response.status).toBe(status);
        expect(typeof ((await response.json()) as { error?: unknown }).error).toBe('string');
      }
      const twoFiles = logoForm(png);
      twoFiles.append('logo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'b.png');
      expect(
        (await call(t.url, 'PUT', '/api/admin/settings/logo', { token: admin, form: twoFiles }))
          .status,
      ).toBe(400);
      expect(await t.storedMediaKeys('settings/')).toEqual([]);
      const settings = settingsResponseSchema.parse(
        await (await call(t.url, 'GET', '/api/admin/settings', { token: admin })).json(),
      );
      expect(settings.logoUrl).toBeNull();
    });

    it('refuses a missing, wrong or forged token and stores nothing', async () => {
      const attendee = await joinAttendee(t.url, 'eve');
      for (const token of [undefined, 'nonsense', attendee, forged(admin)]) {
        for (const method of ['PUT', 'DELETE']) {
          const response = await call(t.url, method, '/api/admin/settings/logo', {
            token,
            ...(method === 'PUT' ? { form: logoForm(await pngImage(64, 64)) } : {}),
          });
          expect(response.status, `${method} ${token}`).toBe(401);
        }
      }
      expect(await t.storedMediaKeys('settings/')).toEqual([]);
    });
  });
});

describe('statsCsv', () => {
  it('neutralises cells a spreadsheet would run as a formula', () => {
    const csv = statsCsv({
      memories: 1,
      questions: 1,
      pendingQuestions: 0,
      speakers: 1,
      attendees: 1,
      votes: 0,
      perSpeaker: [{ speakerId: 'x', name: '=HYPERLINK("http://evil")', questions: 1, votes: 0 }],
      memoriesPerHour: [],
      polls: {
        perPoll: [{ pollId: 'p', sessionId: null, title: '+SUM(A1)', type: 'single', voters: 3 }],
        perSession: [{ sessionId: null, polls: 1, voters: 3 }],
      },
    });
    expect(csv).toContain(`speaker,"'=HYPERLINK(""http://evil"")",1,0,`);
    expect(csv).toContain(`poll voters,'+SUM(A1),,,3`);
    expect(csv.startsWith('\uFEFFsection,')).toBe(true);
  });
});
