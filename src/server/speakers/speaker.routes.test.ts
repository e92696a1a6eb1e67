import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixture, noisyImage } from '../../../tests/support/media.ts';
import {
  speakerCreatedResponseSchema,
  speakerDashboardSchema,
  speakerListSchema,
  speakerLoginResponseSchema,
} from '../../shared/schemas/speaker.ts';
import {
  addSpeaker,
  askQuestion,
  collect,
  errorOf,
  jpegWithExif,
  pngImage,
  postSpeakerForm,
  speakerFiles,
  speakerForm,
} from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe.each(testDatabases)('speaker routes on %s', (database) => {
  const t = useTestApp({ database, env: { EVENT_NAME: 'DevFest' } });
  const watch = useWatchingSockets(t);

  describe('POST /api/speakersadd', () => {
    it('signs a speaker up: 201, a username from the name, picture and avatar URLs', async () => {
      const response = await postSpeakerForm(t.url, {
        name: '  Grace Hopper ',
        stack: 'COBOL, compilers',
        bio: 'Rear admiral.\nFound the first bug.',
        picture: { data: await pngImage(1200, 900), filename: 'grace.png' },
      });
      expect(response.status).toBe(201);
      const body = speakerCreatedResponseSchema.parse(await response.json());
      expect(body.message).toContain('grace-hopper');
      const { speaker } = body;
      expect(speaker).toMatchObject({
        name: 'Grace Hopper',
        username: 'grace-hopper',
        stack: 'COBOL, compilers',
        bio: 'Rear admiral.\nFound the first bug.',
      });
      expect(speaker.message).toContain('DevFest');
      expect(speaker.picture).toMatch(/^\/media\/speakers\/[0-9a-f-]{36}\.webp$/);
      expect(speaker.avatar).toMatch(/^\/media\/speakers\/[0-9a-f-]{36}-avatar\.webp$/);

      const picture = await fetch(`${t.url}${speaker.picture}`);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/webp');
      const pictureMeta = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
      expect(Math.max(pictureMeta.width, pictureMeta.height)).toBe(800);

      const avatar = await fetch(`${t.url}${speaker.avatar ?? ''}`);
      const avatarMeta = await sharp(Buffer.from(await avatar.arrayBuffer())).metadata();
      expect([avatarMeta.width, avatarMeta.height]).toEqual([256, 256]);
    });

    it('strips EXIF and GPS metadata from the stored picture', async () => {
      const original = await jpegWithExif();
      expect((await sharp(original).metadata()).exif).toBeDefined();
      const speaker = await addSpeaker(t.url, 'Exif Person', {
        picture: { data: original, filename: 'phone.jpg', type: 'image/jpeg' },
      });
      for (const url of [speaker.picture, speaker.avatar ?? '']) {
        const stored = Buffer.from(await (await fetch(`${t.url}${url}`)).arrayBuffer());
        const meta = await sharp(stored).metadata();
        expect(meta.exif).toBeUndefined();
        expect(stored.includes(Buffer.from('Secret Owner'))).toBe(false);
      }
    });

    it("takes a phone's HEIC picture, through the same image pipeline as memories", async () => {
      const heic = await fixture('photo.heic');
      const speaker = await addSpeaker(t.url, 'Heic Person', {
        picture: { data: heic, filename: 'IMG_0001.HEIC', type: 'image/heic' },
      });
      for (const [url, square] of [
        [speaker.picture, false],
        [speaker.avatar ?? '', true],
      ] as const) {
        const response = await fetch(`${t.url}${url}`);
        expect(response.headers.get('content-type')).toBe('image/webp');
        const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect(meta.width).toBeGreaterThan(0);
        if (square) expect(meta.width).toBe(meta.height);
      }
    });

    it('gives names with the same slug a -2, -3... suffix and keeps names without ASCII usable', async () => {
      const first = await addSpeaker(t.url, 'Linus Torvalds');
      const second = await addSpeaker(t.url, 'Linus-Torvalds');
      const third = await addSpeaker(t.url, 'Línus  Tórvalds!');
      expect([first.username, second.username, third.username]).toEqual([
        'linus-torvalds',
        'linus-torvalds-2',
        'linus-torvalds-3',
      ]);
      expect((await addSpeaker(t.url, 'Мария Иванова')).username).toBe('mariya-ivanova');
      const han = await addSpeaker(t.url, '李小龍');
      const han2 = await addSpeaker(t.url, '王菲');
      expect(han.username).toMatch(/^speaker(-\d+)?$/);
      expect(han2.username).toMatch(/^speaker-\d+$/);
      expect(han2.username).not.toBe(han.username);
      // The username works for logging in.
      const login = await fetch(`${t.url}/api/speakers/login`, json({ username: han.username }));
      expect(login.status).toBe(200);
    });

    it('gives simultaneous sign-ups with one slug distinct usernames', async () => {
      const names = ['Same Name Race', 'Same-Name Race', 'Same Name-Race', 'Same.Name.Race'];
      const speakers = await Promise.all(names.map((name) => addSpeaker(t.url, name)));
      const usernames = speakers.map((s) => s.username).sort();
      expect(usernames).toEqual([
        'same-name-race',
        'same-name-race-2',
        'same-name-race-3',
        'same-name-race-4',
      ]);
    });

    it('answers 30 simultaneous sign-ups with one name 201 or 409, never a 5xx, and leaves no stray file', async () => {
      const picture = await pngImage();
      const responses = await Promise.all(
        Array.from({ length: 30 }, () =>
          postSpeakerForm(t.url, {
            name: 'Crowded Name',
            stack: 'S',
            bio: 'B',
            picture: { data: picture },
          }),
        ),
      );
      const statuses = responses.map((response) => response.status);
      for (const status of statuses) expect([201, 409]).toContain(status);
      const created = statuses.filter((status) => status === 201).length;
      expect(created).toBeGreaterThan(0);
      for (const response of responses.filter((r) => r.status === 409)) {
        expect(await response.json()).toMatchObject({ code: 'CONFLICT' });
      }
      const listed = speakerListSchema
        .parse(await (await fetch(`${t.url}/speakers`)).json())
        .filter((speaker) => speaker.name === 'Crowded Name');
      expect(listed).toHaveLength(created);
      expect(new Set(listed.map((speaker) => speaker.username)).size).toBe(created);
      // Each created speaker has its picture and avatar; the refused ones left nothing.
      const files = await speakerFiles(t);
      const named = new Set(listed.flatMap((speaker) => [speaker.picture.replace('/media/', '')]));
      for (const key of named) expect(files).toContain(key);
    }, 60_000);

    it('rejects every missing or blank field, leaving no row and no file', async () => {
      const picture = { data: await pngImage() };
      const valid = { name: 'Valid Name', stack: 'Stack', bio: 'Bio', picture };
      const before = await speakerFiles(t);
      const speakersBefore = speakerListSchema.parse(
        await (await fetch(`${t.url}/speakers`)).json(),
      ).length;
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ ...valid, name: undefined }, /Full name is required/],
        [{ ...valid, name: '   ' }, /Full name is required/],
        [{ ...valid, stack: undefined }, /Stack is required/],
        [{ ...valid, bio: '' }, /Bio is required/],
        [{ ...valid, picture: undefined }, /Picture is required/],
        [{ ...valid, picture: { data: Buffer.alloc(0) } }, /Picture is required/],
        [{ ...valid, name: 'x'.repeat(101) }, /at most 100 characters/],
        [{ ...valid, stack: 'x'.repeat(101) }, /at most 100 characters/],
        [{ ...valid, bio: 'x'.repeat(2001) }, /at most 2000 characters/],
        [{ ...valid, name: 'Two\nLines' }, /not allowed/],
      ];
      for (const [input, message] of cases) {
        const response = await postSpeakerForm(t.url, input);
        expect(response.status, JSON.stringify(input).slice(0, 80)).toBe(400);
        expect(await errorOf(response)).toMatch(message);
      }
      expect(await speakerFiles(t)).toEqual(before);
      const speakersAfter = speakerListSchema.parse(
        await (await fetch(`${t.url}/speakers`)).json(),
      ).length;
      expect(speakersAfter).toBe(speakersBefore);
    });

    it('checks the picture by its bytes: text and PDF are 415, a broken image a 400', async () => {
      const before = await speakerFiles(t);
      const png = await pngImage();
      const cases = [
        {
          data: Buffer.from('<svg onload="alert(1)"></svg>'),
          filename: 'x.png',
          type: 'image/png',
        },
        { data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), filename: 'cv.pdf' },
        {
          data: Buffer.concat([png.subarray(0, 64), Buffer.alloc(4000, 7)]),
          filename: 'cut.png',
          status: 400,
        },
      ];
      for (const picture of cases) {
        const response = await postSpeakerForm(t.url, {
          name: 'Bad Picture',
          stack: 's',
          bio: 'b',
          picture,
        });
        expect(response.status, picture.filename).toBe(picture.status ?? 415);
        const error = await errorOf(response);
        expect(error).toMatch(/picture/i);
        expect(error).toMatch(
          picture.status === 400
            ? /damaged or incomplete/
            : /JPG, PNG, WebP, GIF, HEIC, HEIF, AVIF/,
        );
      }
      expect(await speakerFiles(t)).toEqual(before);
    });

    it('refuses a body that is not multipart, a second picture and a stray file field', async () => {
      const asJson = await fetch(
        `${t.url}/api/speakersadd`,
        json({ name: 'A', stack: 'B', bio: 'C', picture: 'data:image/png;base64,AAAA' }),
      );
      expect(asJson.status).toBe(415);
      await errorOf(asJson);

      const png = await pngImage();
      const twice = speakerForm({ name: 'A', stack: 'B', bio: 'C', picture: { data: png } });
      twice.append('picture', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'b.png');
      const twiceResponse = await postSpeakerForm(t.url, twice);
      expect(twiceResponse.status).toBe(400);
      expect(await errorOf(twiceResponse)).toMatch(/one picture/);

      const stray = speakerForm({ name: 'A', stack: 'B', bio: 'C' });
      stray.append('avatar', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'c.png');
      const strayResponse = await postSpeakerForm(t.url, stray);
      expect(strayResponse.status).toBe(400);
      expect(await errorOf(strayResponse)).toMatch(/Unexpected file field "avatar"/);
    });

    it('tells everyone about a new speaker over the socket', async () => {
      const created = collect(await watch(), 'speakerCreated');
      const speaker = await addSpeaker(t.url, 'Socket Speaker');
      await expect.poll(() => created.map((event) => event.speaker._id)).toEqual([speaker._id]);
      expect(created[0]?.speaker).toEqual(speaker);
    });
  });

  describe('GET /speakers and GET /api/speakerscard', () => {
    it('list every speaker by name on both paths, with an ETag that changes on sign-up', async () => {
      await addSpeaker(t.url, 'zed Last');
      await addSpeaker(t.url, 'Alan Turing');
      const first = await fetch(`${t.url}/speakers`);
      expect(first.status).toBe(200);
      const list = speakerListSchema.parse(await first.json());
      const names = list.map((s) => s.name.toLowerCase());
      expect(names).toEqual([...names].sort());
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers.get('cache-control')).toBe('no-cache');

      const card = await fetch(`${t.url}/api/speakerscard`);
      expect(speakerListSchema.parse(await card.json())).toEqual(list);
      expect(card.headers.get('etag')).toBe(etag);

      for (const path of ['/speakers', '/api/speakerscard']) {
        const again = await fetch(`${t.url}${path}`, { headers: { 'if-none-match': etag ?? '' } });
        expect(again.status, path).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
      }

      await addSpeaker(t.url, 'Barbara Liskov');
      const changed = await fetch(`${t.url}/speakers`, {
        headers: { 'if-none-match': etag ?? '' },
      });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(speakerListSchema.parse(await changed.json())).toHaveLength(list.length + 1);
    });
  });

  describe('POST /api/speakers/login', () => {
    it('logs in by username, ignoring case and spaces', async () => {
      const speaker = await addSpeaker(t.url, 'Katherine Johnson');
      const response = await fetch(
        `${t.url}/api/speakers/login`,
        json({ username: '  Katherine-JOHNSON ' }),
      );
      expect(response.status).toBe(200);
      const body = speakerLoginResponseSchema.parse(await response.json());
      expect(body.message).toBe('Login successful!');
      expect(body.speaker).toEqual(speaker);
    });

    it('answers 404 "Speaker not found" for an unknown username and 400 for bad input', async () => {
      const unknown = await fetch(`${t.url}/api/speakers/login`, json({ username: 'nobody-here' }));
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({
        error: 'Speaker not found',
        code: 'NOT_FOUND',
        messageId: 'notFound.speaker',
      });

      for (const body of [{}, { username: '' }, { username: '   ' }, { username: 42 }, []]) {
        const response = await fetch(`${t.url}/api/speakers/login`, json(body));
        expect(response.status, JSON.stringify(body)).toBe(400);
        await errorOf(response);
      }
      const tooLong = await fetch(
        `${t.url}/api/speakers/login`,
        json({ username: 'x'.repeat(61) }),
      );
      expect(tooLong.status).toBe(400);
      const notJson = await fetch(`${t.url}/api/speakers/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"username":',
      });
      expect(notJson.status).toBe(400);
      await errorOf(notJson);
    });
  });

  describe('GET /api/speakers/:username/dashboard', () => {
    it('answers the speaker with their questions, oldest first, with an ETag', async () => {
      const speaker = await addSpeaker(t.url, 'Dorothy Vaughan');
      const other = await addSpeaker(t.url, 'Someone Else');
      const empty = await fetch(`${t.url}/api/speakers/dorothy-vaughan/dashboard`);
      expect(speakerDashboardSchema.parse(await empty.json()).questions).toEqual([]);

      const q1 = await askQuestion(t.url, {
        speakerId: speaker._id,
        question: 'First?',
        askerUsername: 'ann',
      });
      await askQuestion(t.url, { speakerId: other._id, question: 'Not mine', askerUsername: 'x' });
      const q2 = await askQuestion(t.url, {
        speakerId: speaker._id,
        question: 'Second?',
        askerUsername: 'bob',
      });

      const response = await fetch(`${t.url}/api/speakers/Dorothy-Vaughan/dashboard`);
      expect(response.status).toBe(200);
      const dashboard = speakerDashboardSchema.parse(await response.json());
      expect(dashboard).toMatchObject({ _id: speaker._id, name: 'Dorothy Vaughan' });
      expect(dashboard.questions).toEqual([q1, q2]);

      const etag = response.headers.get('etag') ?? '';
      const same = await fetch(`${t.url}/api/speakers/dorothy-vaughan/dashboard`, {
        headers: { 'if-none-match': etag },
      });
      expect(same.status).toBe(304);
      await askQuestion(t.url, { speakerId: speaker._id, question: 'Third?', askerUsername: 'c' });
      const changed = await fetch(`${t.url}/api/speakers/dorothy-vaughan/dashboard`, {
        headers: { 'if-none-match': etag },
      });
      expect(changed.status).toBe(200);
      expect(speakerDashboardSchema.parse(await changed.json()).questions).toHaveLength(3);
    });

    it('answers 404 for an unknown speaker', async () => {
      for (const name of ['nobody', 'x'.repeat(90), '%E2%9C%93', 'a%2Fb']) {
        const response = await fetch(`${t.url}/api/speakers/${name}/dashboard`);
        expect(response.status, name).toBe(404);
        expect(await errorOf(response)).toBe('Speaker not found');
      }
    });
  });
});

describe('speaker sign-up limits', () => {
  const t = useTestApp({ env: { MAX_UPLOAD_MB: '0.05', WRITE_RATE_LIMIT: '4' } });

  it('refuses a picture over the upload limit with 413, leaving nothing behind', async () => {
    const noise = await noisyImage();
    expect(noise.length).toBeGreaterThan(0.05 * 1024 * 1024);
    const response = await postSpeakerForm(t.url, {
      name: 'Big Picture',
      stack: 's',
      bio: 'b',
      picture: { data: noise },
    });
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toBe('The picture is larger than 0.05 MB');
    expect(await speakerFiles(t)).toEqual([]);
  });

  it('rate-limits writes per person with a 429', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i += 1) {
      last = await fetch(`${t.url}/api/speakers/login`, {
        ...json({ username: 'nobody' }),
        headers: { 'content-type': 'application/json', 'x-confab-user': 'hammer' },
      });
      statuses.push(last.status);
    }
    expect(last?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await last?.json()) as { code?: string }).code).toBe('RATE_LIMITED');
    expect(statuses.slice(0, 4)).toEqual([404, 404, 404, 404]);
    expect(statuses.slice(4)).toEqual([429, 429]);
  });
});
