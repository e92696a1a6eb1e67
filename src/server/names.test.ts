import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryPostResponseSchema } from '../shared/schemas/memory.ts';
import { questionSchema } from '../shared/schemas/question.ts';
import { settingsResponseSchema } from '../shared/schemas/settings.ts';
import { speakerCreatedResponseSchema } from '../shared/schemas/speaker.ts';
import {
  addSpeaker,
  adminToken,
  bearer,
  call,
  errorOf,
  joinAttendee,
  pngImage,
  postSpeakerForm,
} from '../../tests/support/speakers.ts';
import { type TestApp, testDatabases, useTestApp } from '../../tests/support/test-app.ts';
import { readZip } from '../../tests/support/zip.ts';
import { writeSetting } from './settings/settings.repository.ts';

const PASSWORD = 'names admin password';

/** Bidi controls, zero-width characters and other format characters: none of them prints. */
const HIDDEN =
  /[\u00ad\u061c\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** A name that reverses the rest of itself on screen: it reads "Adaexe.png". */
const REVERSING = 'Ada\u202Egnp.exe';
/** Nothing a person can see. */
const ZERO_WIDTH_ONLY = '\u200B\u200C\u200D\u2060\uFEFF\u00AD';
/** A woman technologist, medium skin tone: three code points joined by a ZWJ. */
const TECHNOLOGIST = '\u{1F469}\u{1F3FD}\u200D\u{1F4BB}';

const png = () =>
  sharp({ create: { width: 24, height: 16, channels: 3, background: '#4c6ef5' } })
    .png()
    .toBuffer();

/** What the app did with a name: refused (status and message) or kept (the stored name). */
type Outcome = { status: number; error: string } | { status: number; stored: string };

async function refusedOrStored(response: Response, stored: (body: unknown) => string) {
  if (response.status >= 400) return { status: response.status, error: await errorOf(response) };
  return { status: response.status, stored: stored(await response.json()) };
}

/** `Upload-Metadata`: each key with its value in base64. */
const metadataOf = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

describe.each(testDatabases)('names without invisible characters on %s', (database) => {
  const t = useTestApp({
    database,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '10000', QUESTIONS_PER_MINUTE: '600' },
  });
  let admin: string;
  let speakerId: string;
  let ada: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
    speakerId = (await addSpeaker(t.url, 'Grace Hopper'))._id;
    ada = await joinAttendee(t.url, 'ada');
  });

  /** Each name field: how a name is sent in it, and the text an empty one is refused with. */
  const fields: {
    field: string;
    empty: string;
    send: (t: TestApp, name: string, n: number) => Promise<Outcome>;
  }[] = [
    {
      field: 'the username of POST /api/attendees',
      empty: 'Username is required',
      send: async (app, username) =>
        refusedOrStored(
          await call(app.url, 'POST', '/api/attendees', { body: { username } }),
          (body) => (body as { username: string }).username,
        ),
    },
    {
      field: 'the username of a memory post',
      empty: 'Username is required',
      send: async (app, username) => {
        const form = new FormData();
        form.append('caption', 'A name test');
        form.append('username', username);
        form.append(
          'files',
          new Blob([new Uint8Array(await png())], { type: 'image/png' }),
          'a.png',
        );
        return refusedOrStored(
          await call(app.url, 'POST', '/api/memories', { form }),
          (body) => memoryPostResponseSchema.parse(body).memories[0]?.username ?? '',
        );
      },
    },
    {
      field: 'the username of a resumable upload',
      empty: 'Username is required',
      send: async (app, username) => {
        const bytes = await png();
        // The app joins with the name it then uploads under; a name refused at join is tried
        // with a token of another name, so the metadata's own check answers.
        const joined = await call(app.url, 'POST', '/api/attendees', { body: { username } });
        const token =
          joined.status === 201 ? ((await joined.json()) as { token: string }).token : ada;
        const tus = { 'tus-resumable': '1.0.0', ...bearer(token) };
        const created = await fetch(`${app.url}/api/uploads`, {
          method: 'POST',
          headers: {
            ...tus,
            'upload-length': String(bytes.length),
            'upload-metadata': metadataOf({
              filename: 'a.png',
              filetype: 'image/png',
              caption: 'A resumable name test',
              username,
            }),
          },
        });
        if (created.status !== 201) return refusedOrStored(created, () => '');
        const sent = await fetch(`${app.url}${created.headers.get('location') ?? ''}`, {
          method: 'PATCH',
          headers: {
            ...tus,
            'content-type': 'application/offset+octet-stream',
            'upload-offset': '0',
          },
          body: new Uint8Array(bytes),
        });
        expect(sent.status).toBe(204);
        const id = sent.headers.get('memory-id') ?? '';
        const memory = await fetch(`${app.url}/api/memory/${id}`);
        return {
          status: created.status,
          stored: ((await memory.json()) as { username: string }).username,
        };
      },
    },
    {
      field: 'the askerUsername of a question',
      empty: 'Username is required',
      send: async (app, askerUsername, n) =>
        refusedOrStored(
          await call(app.url, 'POST', '/questions', {
            body: { speakerId, question: `Name test ${n}?`, askerUsername },
          }),
          (body) => questionSchema.parse(body).askerUsername ?? '',
        ),
    },
    {
      field: 'the name of a speaker',
      empty: 'Full name is required',
      send: async (app, name, n) =>
        refusedOrStored(
          await postSpeakerForm(app.url, {
            name,
            stack: 'Compilers',
            bio: `Speaker ${n}`,
            picture: { data: await pngImage(32, 32) },
          }),
          (body) => speakerCreatedResponseSchema.parse(body).speaker.name,
        ),
    },
    {
      field: 'the event name of the settings',
      empty: 'eventName is required',
      send: async (app, eventName) =>
        refusedOrStored(
          await call(app.url, 'PUT', '/api/admin/settings', {
            token: admin,
            body: { eventName },
          }),
          (body) => settingsResponseSchema.parse(body).eventName,
        ),
    },
  ];

  describe.each(fields)('$field', ({ empty, send }) => {
    /** The answer to a name left blank: the one a name of nothing visible must get. */
    const blank = async () => {
      const answer = await send(t, '   ', 0);
      expect(answer).toEqual({ status: 400, error: expect.stringContaining(empty) as string });
      return answer;
    };

    it('refuses a name of a right-to-left override alone, as an empty one', async () => {
      const refusal = await blank();
      expect(await send(t, '\u202E', 1)).toEqual(refusal);
      expect(await send(t, ' \u202E\u2066 ', 2)).toEqual(refusal);
    });

    it('refuses a name of zero-width characters only, as an empty one', async () => {
      expect(await send(t, ZERO_WIDTH_ONLY, 3)).toEqual(await blank());
    });

    it('stores a name without its bidi controls: "Ada\\u202Egnp.exe" is "Adagnp.exe"', async () => {
      const outcome = await send(t, REVERSING, 4);
      expect(outcome).toMatchObject({ stored: 'Adagnp.exe' });
    });

    it('keeps a ZWJ inside an emoji sequence, and drops one between letters', async () => {
      const outcome = await send(t, `Ma\u200Dry ${TECHNOLOGIST}`, 5);
      expect(outcome).toMatchObject({ stored: `Mary ${TECHNOLOGIST}` });
    });
  });

  it('makes ZIP entry names of cleaned text only, whatever a caption carries', async () => {
    const form = new FormData();
    form.append('caption', 'Holiday \u202Egnp.exe\u0085\u2067');
    form.append('username', 'zip-test');
    form.append('files', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'a.png');
    expect((await call(t.url, 'POST', '/api/memories', { form })).status).toBe(201);
    const response = await fetch(`${t.url}/api/admin/memories.zip`, { headers: bearer(admin) });
    expect(response.status).toBe(200);
    const names = readZip(Buffer.from(await response.arrayBuffer())).map((entry) => entry.name);
    const mine = names.filter((name) => name.includes('zip-test'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2} zip-test - Holiday gnp\.exe\.png$/,
    );
    for (const name of names) {
      // A ZWJ is left only inside an emoji (another test's "Mary 👩🏽‍💻").
      expect(
        name.replaceAll(/(?<=\p{Extended_Pictographic}\p{Emoji_Modifier}?)\u200D/gu, ''),
      ).not.toMatch(/\u200D/);
      expect(name).not.toMatch(HIDDEN);
      expect(name).not.toMatch(/\p{Cc}/u);
    }
  });

  it('neutralises exported CSV cells that start with an invisible or a full-width formula character', async () => {
    const texts = [
      '\u202E=1+1',
      '＝HYPERLINK("http://evil")',
      '＋1',
      '－1',
      '＠SUM(A1)',
      '\u200B=2',
    ];
    for (const question of texts) {
      const response = await call(t.url, 'POST', '/questions', {
        body: { speakerId, question, askerUsername: 'csv-test' },
      });
      expect(response.status, question).toBe(201);
      questionSchema.parse(await response.json());
    }
    const csv = await call(t.url, 'GET', '/api/admin/questions.csv', { token: admin });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).split('\r\n').filter((line) => line.includes('csv-test'));
    expect(lines).toHaveLength(texts.length);
    for (const text of texts) {
      const cell = `'${text}`.includes('"') ? `"'${text.replaceAll('"', '""')}"` : `'${text}`;
      expect(
        lines.some((line) => line.includes(`,csv-test,${cell},`)),
        text,
      ).toBe(true);
    }
  });

  it('keeps the other stored settings when a stored event name is nothing visible', async () => {
    const { settings } = t.app.deps;
    // As stored before names were cleaned: an event name of a bidi override alone.
    await writeSetting(
      t.app.deps.db,
      'app',
      JSON.stringify({ ...settings.current, eventName: '\u202E', questionsPerMinute: 599 }),
    );
    await settings.reload();
    expect(settings.current).toMatchObject({ eventName: 'Confab', questionsPerMinute: 599 });
    await writeSetting(
      t.app.deps.db,
      'app',
      JSON.stringify({
        ...settings.current,
        eventName: 'Conf\u2067 2026',
        questionsPerMinute: 600,
      }),
    );
    await settings.reload();
    expect(settings.current).toMatchObject({ eventName: 'Conf 2026', questionsPerMinute: 600 });
  });
});
