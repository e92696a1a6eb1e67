import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleSchema, type Schedule, type Session } from '../../../shared/schemas/programme.ts';
import { SPEAKER_NO_PICTURE } from '../../../shared/qa-constants.ts';
import { scheduleImportResultSchema } from '../../../shared/schemas/schedule-import.ts';
import { type Speaker, speakerListSchema } from '../../../shared/schemas/speaker.ts';
import {
  addSpeakerWithSecret,
  adminToken,
  askQuestion,
  bearer,
  errorOf,
  forged,
  joinAttendee,
  speakerToken,
} from '../../../../tests/support/speakers.ts';
import { ManualClock } from '../../../../tests/support/manual-clock.ts';
import { type TestApp, testDatabases, useTestApp } from '../../../../tests/support/test-app.ts';
import { refreshSchedule } from './schedule-import.service.ts';

const PASSWORD = 'schedule-import-admin-password';
const FIXTURES = path.join(import.meta.dirname, '../../../../tests/fixtures/schedules');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

/** Posts a schedule as the admin (or as `token`): text with its media type. */
function postSchedule(
  t: { url: string },
  token: string | undefined,
  body: string,
  type = 'application/xml',
): Promise<Response> {
  return fetch(`${t.url}/api/admin/schedule`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': type },
    body,
  });
}

async function imported(response: Response) {
  if (response.status !== 200) {
    throw new Error(`import failed: ${response.status} ${await response.text()}`);
  }
  return scheduleImportResultSchema.parse(await response.json());
}

async function schedule(t: { url: string }): Promise<Schedule> {
  return scheduleSchema.parse(await (await fetch(`${t.url}/api/schedule`)).json());
}

async function speakers(t: { url: string }): Promise<Speaker[]> {
  return speakerListSchema.parse(await (await fetch(`${t.url}/speakers`)).json());
}

const byTitle = (s: Schedule, title: string): Session => {
  const found = s.sessions.find((session) => session.title === title);
  if (!found) throw new Error(`no session "${title}"`);
  return found;
};

/** A local server handing out the fixtures, as a pretalx instance would. */
function useScheduleServer() {
  let server: http.Server;
  const origin = { url: '' };
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const name = path.basename(request.url ?? '');
      if (!fs.existsSync(path.join(FIXTURES, name))) {
        response.statusCode = 404;
        response.end();
        return;
      }
      response.setHeader('content-type', name.endsWith('.json') ? 'application/json' : 'text/xml');
      response.end(fixture(name));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return origin;
}

describe.each(testDatabases)('importing a schedule (%s)', (database) => {
  const files = useScheduleServer();
  const t = useTestApp({
    database,
    env: {
      ADMIN_PASSWORD: PASSWORD,
      SCHEDULE_ALLOWED_HOSTS: '127.0.0.1',
      SCHEDULE_REFRESH_MINUTES: '0',
      WRITE_RATE_LIMIT: '1000',
    },
  });
  let token: string;
  let grace: { speaker: Speaker; secret: string };

  beforeAll(async () => {
    token = await adminToken(t.url, PASSWORD);
    // She signed up by hand before the programme was imported: she stays one speaker.
    grace = await addSpeakerWithSecret(t.url, 'Grace Hopper');
  });

  it('imports pretalx’s schedule.xml: rooms in order, sessions, speakers, the time zone', async () => {
    const result = await imported(await postSchedule(t, token, fixture('pretalx.xml')));
    expect(result).toEqual({
      rooms: 3,
      sessions: { added: 11, updated: 0, unchanged: 0, cancelled: 0, deleted: 0 },
      speakers: { added: 6, matched: 1 },
    });
    const s = await schedule(t);
    expect(s.timezone).toBe('Europe/Berlin');
    expect(s.rooms.map((room) => [room.name, room.position])).toEqual([
      ['Main Hall', 0],
      ['Room 101', 1],
      ['Lab & Workshop', 2],
    ]);
    expect(s.sessions).toHaveLength(11);
    const opening = byTitle(s, 'Opening & Welcome');
    expect([opening.startsAt, opening.endsAt]).toEqual([
      '2026-03-27T09:30:00+01:00',
      '2026-03-27T10:15:00+01:00',
    ]);
    expect(byTitle(s, 'Keynote: latency < 1 ms').startsAt).toBe('2026-03-29T10:00:00+02:00');
    expect(byTitle(s, 'Parsing <XML> safely').guid).toBe('8d8154ef-3071-54a8-acfe-8d6410269869');
    expect(byTitle(s, 'Coffee break')).toMatchObject({ speakerIds: [], track: null });
  });

  it('makes people speakers: a panel in order, every script, the hand-made speaker kept', async () => {
    const s = await schedule(t);
    const all = await speakers(t);
    const nameOf = (id: string) => all.find((speaker) => speaker._id === id)?.name;
    expect(byTitle(s, 'Panel: The future of open source').speakerIds.map(nameOf)).toEqual([
      'Ada Lovelace',
      'ليلى حسن',
      '山田 太郎',
    ]);
    expect(byTitle(s, 'Rust & WebAssembly').speakerIds).toEqual([grace.speaker._id]);
    expect(all.filter((speaker) => speaker.name === 'Grace Hopper')).toHaveLength(1);
    const imported = all.filter((speaker) => speaker._id !== grace.speaker._id);
    expect(imported.map((speaker) => [speaker.name, speaker.username]).sort()).toEqual(
      [
        ['Ada Lovelace', 'ada-lovelace'],
        ['José Núñez', 'jose-nunez'],
        ['Zoë Ångström-Müller', 'zoe-angstrom-muller'],
        ['Мария Иванова', 'mariya-ivanova'],
        ['ليلى حسن', 'speaker'],
        ['山田 太郎', 'speaker-2'],
      ].sort(),
    );
    for (const speaker of imported) {
      expect(speaker).toMatchObject({ picture: SPEAKER_NO_PICTURE, avatar: null, stack: '' });
    }
    // Every screen of a speaker works for them: the dashboard, by username.
    const dashboard = await fetch(`${t.url}/api/speakers/mariya-ivanova/dashboard`);
    expect(dashboard.status).toBe(200);
    // schedule.xml carries no biographies (schedule.json does).
    expect(await dashboard.json()).toMatchObject({ name: 'Мария Иванова', bio: '', questions: [] });
  });

  it('imports it again, in either format, without duplicating anything', async () => {
    const before = await schedule(t);
    for (const [body, type] of [
      [fixture('pretalx.xml'), 'text/xml'],
      [fixture('pretalx.json'), 'application/json'],
    ] as const) {
      expect(await imported(await postSchedule(t, token, body, type))).toEqual({
        rooms: 3,
        sessions: { added: 0, updated: 0, unchanged: 11, cancelled: 0, deleted: 0 },
        speakers: { added: 0, matched: 7 },
      });
    }
    const after = await schedule(t);
    expect(after.sessions).toEqual(before.sessions);
    expect(after.rooms).toEqual(before.rooms);
    expect(await speakers(t)).toHaveLength(7);
  });

  it('re-imports a changed schedule: ids kept, a talk with a question cancelled, one deleted', async () => {
    const before = await schedule(t);
    const moved = byTitle(before, 'Parsing <XML> safely');
    const renamed = byTitle(before, 'Кириллица в Юникоде');
    const withQuestion = byTitle(before, 'Rust & WebAssembly');
    const without = byTitle(before, 'Lightning talks');
    const yamada = (await speakers(t)).find((s) => s.name === '山田 太郎');
    const speakersTag = (await fetch(`${t.url}/speakers`)).headers.get('etag') ?? '';
    const question = await askQuestion(t.url, {
      speakerId: grace.speaker._id,
      question: 'Does it run in the browser?',
      askerUsername: 'linus',
    });
    await t.app.deps.db
      .updateTable('questions')
      .set({ session_id: withQuestion._id })
      .where('id', '=', question._id)
      .execute();

    const result = await imported(
      await postSchedule(t, token, fixture('pretalx-changed.json'), 'application/json'),
    );
    expect(result).toEqual({
      rooms: 3,
      sessions: { added: 1, updated: 2, unchanged: 7, cancelled: 1, deleted: 1 },
      speakers: { added: 1, matched: 7 },
    });
    const after = await schedule(t);
    const room101 = after.rooms.find((room) => room.name === 'Room 101')?._id;
    expect(after.sessions.find((s) => s._id === moved._id)).toMatchObject({
      roomId: room101,
      startsAt: '2026-03-27T11:15:00+01:00',
      endsAt: '2026-03-27T12:00:00+01:00',
    });
    expect(after.sessions.find((s) => s._id === renamed._id)?.title).toBe(
      'Кириллица и Unicode: обновлено',
    );
    expect(after.sessions.find((s) => s._id === withQuestion._id)?.cancelled).toBe(true);
    expect(after.sessions.find((s) => s._id === without._id)).toBeUndefined();
    expect((await fetch(`${t.url}/api/sessions/${without._id}`)).status).toBe(404);
    const added = byTitle(after, 'Late addition: SQLite tips');
    expect(added.speakerIds).toHaveLength(1);
    // The question is still there, still in its (cancelled) session.
    const kept = await t.app.deps.db
      .selectFrom('questions')
      .select(['id', 'session_id'])
      .where('id', '=', question._id)
      .executeTakeFirst();
    expect(kept).toEqual({ id: question._id, session_id: withQuestion._id });
    // A renamed person is the same speaker: matched by the schedule's person id, and named as
    // the schedule names them now, their username and their questions kept.
    const panel = byTitle(after, 'Panel: The future of open source');
    expect(panel.speakerIds).toEqual(
      byTitle(before, 'Panel: The future of open source').speakerIds,
    );
    const everyone = await speakers(t);
    expect(everyone).toHaveLength(8);
    expect(everyone.find((s) => s._id === yamada?._id)).toMatchObject({
      name: '山田 太郎 (Taro Yamada)',
      username: yamada?.username,
    });
    expect(everyone.map((s) => s.name)).not.toContain('山田 太郎');
    // The list's version moved with the names: a phone's cached list is not answered 304.
    const again = await fetch(`${t.url}/speakers`, { headers: { 'if-none-match': speakersTag } });
    expect(again.status).toBe(200);

    // Once more: nothing changes, the cancelled talk is not counted again.
    expect(
      (await imported(await postSchedule(t, token, fixture('pretalx-changed.xml')))).sessions,
    ).toEqual({ added: 0, updated: 0, unchanged: 10, cancelled: 0, deleted: 0 });
  });

  it('a talk back in the schedule is no longer cancelled, under the same id', async () => {
    const before = await schedule(t);
    const cancelled = byTitle(before, 'Rust & WebAssembly');
    const result = await imported(await postSchedule(t, token, fixture('pretalx.xml')));
    expect(result.sessions).toEqual({
      added: 1,
      updated: 3,
      unchanged: 7,
      cancelled: 0,
      deleted: 1,
    });
    const after = await schedule(t);
    expect(after.sessions.find((s) => s._id === cancelled._id)?.cancelled).toBe(false);
  });

  it('fetches a schedule from an address (an allowed host)', async () => {
    const response = await postSchedule(
      t,
      token,
      JSON.stringify({ url: `${files.url}/pretalx.json` }),
      'application/json',
    );
    expect((await imported(response)).sessions.unchanged).toBe(11);
    const missing = await postSchedule(
      t,
      token,
      JSON.stringify({ url: `${files.url}/nothing.xml` }),
      'application/json',
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: `The schedule could not be fetched: ${new URL(files.url).host} answered 404`,
      code: 'SCHEDULE_URL_REFUSED',
    });
  });

  it('imports an old frab schedule.xml beside it', async () => {
    const result = await imported(await postSchedule(t, token, fixture('frab-old.xml')));
    // frab's guids are new to this programme: pretalx's sessions are gone, deleted.
    expect(result.sessions).toMatchObject({ added: 4, deleted: 10, cancelled: 1 });
    const s = await schedule(t);
    // No time zone named: the event's stays as it was.
    expect(s.timezone).toBe('Europe/Berlin');
    expect(byTitle(s, 'Late Night: Grüße aus Hamburg')).toMatchObject({
      guid: '31c3-6574',
      startsAt: '2014-12-28T02:30:00+01:00',
    });
  });

  describe('what cannot be imported is refused, and nothing changes', () => {
    let before: Schedule;
    beforeAll(async () => {
      before = await schedule(t);
    });
    afterAll(async () => {
      expect(await schedule(t)).toEqual(before);
    });

    it.each([
      ['xxe.xml', 'line 2: a DOCTYPE declaration is not accepted (DTDs and entities are refused)'],
      [
        'billion-laughs.xml',
        'line 2: a DOCTYPE declaration is not accepted (DTDs and entities are refused)',
      ],
    ])('%s', async (name, problem) => {
      const started = performance.now();
      const response = await postSchedule(t, token, fixture(name));
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: `The schedule cannot be imported: ${problem}`,
        code: 'SCHEDULE_INVALID',
      });
    });

    it.each([
      [
        'a broken XML file',
        fixture('pretalx.xml').replace('</title>', '</titel>'),
        'application/xml',
        /^line 8: /,
      ],
      [
        'broken JSON',
        '{\n "schedule": {,\n}',
        'application/json',
        /^line 2, column 15: not valid JSON \(/,
      ],
      [
        'a bad field',
        fixture('pretalx.json').replace('"duration": "00:45"', '"duration": "forty"'),
        'application/json',
        /^schedule\.conference\.days\[0\]\.rooms\["Main Hall"\]\[0\]: duration "forty"/,
      ],
      [
        'no conference',
        '<schedule><day date="2026-01-01"/></schedule>',
        'application/xml',
        /^conference: the file has no conference$/,
      ],
      [
        'no day',
        '<schedule><conference><title>x</title></conference></schedule>',
        'text/xml',
        /^days: the file lists no day$/,
      ],
      ['an empty JSON file', '{}', 'application/json', /^schedule: the file has no schedule$/],
      ['an empty body', '', 'application/json', /^line 1, column 1: not valid JSON \(/],
      [
        'a feed',
        '<?xml version="1.0"?><rss><channel/></rss>',
        'application/xml',
        /^line 1: the root element is not <schedule>$/,
      ],
    ])('%s: a 400 naming the line or field', async (_name, body, type, problem) => {
      const response = await postSchedule(t, token, body, type);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { error: string; code: string };
      expect(answer.code).toBe('SCHEDULE_INVALID');
      expect(answer.error.replace('The schedule cannot be imported: ', '')).toMatch(problem);
    });

    it('a URL that is not http(s) is refused', async () => {
      const response = await postSchedule(
        t,
        token,
        JSON.stringify({ url: 'file:///etc/passwd' }),
        'application/json',
      );
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toBe(
        "The schedule's address is refused: only http and https addresses are fetched, not file",
      );
    });

    it('another media type is a 415', async () => {
      const response = await postSchedule(t, token, fixture('pretalx.xml'), 'text/plain');
      expect(response.status).toBe(415);
    });

    it('a body over 10 MB is a 413', async () => {
      const huge = `<schedule>${' '.repeat(10 * 1024 * 1024)}</schedule>`;
      const response = await postSchedule(t, token, huge);
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({
        error: 'The schedule is larger than 10 MB',
        code: 'PAYLOAD_TOO_LARGE',
      });
    });

    it('only the admin may import: no token, a forged one, an attendee’s, a speaker’s', async () => {
      const attendee = await joinAttendee(t.url, 'mallory');
      const speaker = await speakerToken(t.url, grace.speaker.username, grace.secret);
      for (const caller of [undefined, forged(token), attendee, speaker]) {
        const response = await postSchedule(t, caller, fixture('pretalx.xml'));
        expect(response.status).toBe(401);
        expect(await errorOf(response)).toBeTruthy();
      }
    });
  });

  it('sign-in links as CSV: one per speaker, each with a new secret', async () => {
    const refused = await fetch(`${t.url}/api/admin/speakers/links.csv`);
    expect(refused.status).toBe(401);
    const response = await fetch(`${t.url}/api/admin/speakers/links.csv`, {
      headers: bearer(token),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('no-store');
    // A byte-order mark first, which `text()` would drop: read the bytes.
    const text = Buffer.from(await response.arrayBuffer()).toString('utf8');
    expect(text.startsWith('\uFEFFname,username,link\r\n')).toBe(true);
    const rows = text.slice(1).trimEnd().split('\r\n').slice(1);
    const all = await speakers(t);
    expect(rows).toHaveLength(all.length);
    const graceRow = rows.find((row) => row.startsWith('Grace Hopper,'));
    const link = new URL(graceRow?.split(',')[2] ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(`${t.url}/SpeakerLogin`);
    const fragment = new URLSearchParams(link.hash.slice(1));
    expect(fragment.get('username')).toBe(grace.speaker.username);
    // The new secret signs in; the one from sign-up no longer does.
    await expect(
      speakerToken(t.url, grace.speaker.username, fragment.get('secret') ?? ''),
    ).resolves.toBeTruthy();
    await expect(speakerToken(t.url, grace.speaker.username, grace.secret)).rejects.toThrow(
      'login failed: 401',
    );
    // An imported speaker signs in with theirs too.
    const mariya = rows.find((row) => row.startsWith('Мария Иванова,'));
    const mariyaLink = new URL(mariya?.split(',')[2] ?? '');
    const secret = new URLSearchParams(mariyaLink.hash.slice(1)).get('secret') ?? '';
    await expect(speakerToken(t.url, 'mariya-ivanova', secret)).resolves.toBeTruthy();
  });
});

describe('schedule import limits', () => {
  const t = useTestApp({ env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '3' } });

  it('an address on the server’s own network is refused unless allowed', async () => {
    const token = await adminToken(t.url, PASSWORD);
    const response = await postSchedule(
      t,
      token,
      JSON.stringify({ url: `${t.url}/api/schedule` }),
      'application/json',
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "The schedule's address is refused: 127.0.0.1 is on the server's own network",
      code: 'SCHEDULE_URL_REFUSED',
    });
  });

  it('imports are rate limited', async () => {
    const token = await adminToken(t.url, PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${t.url}/api/admin/schedule`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/xml', 'x-confab-user': 'a' },
        body: '<schedule/>',
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it('the links are rate limited too', async () => {
    const token = await adminToken(t.url, PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (
          await fetch(`${t.url}/api/admin/speakers/links.csv`, {
            headers: { ...bearer(token), 'x-confab-user': 'b' },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('fetching an address’s schedule again while the event runs', () => {
  const files = useScheduleServer();
  // The day before the programme's last day.
  const clock = new ManualClock('2026-03-28T12:00:00Z');
  const t = useTestApp(() => ({
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, SCHEDULE_ALLOWED_HOSTS: '127.0.0.1' },
  }));

  it('refetches from the last import’s address, on one instance at a time, only while it runs', async () => {
    const token = await adminToken(t.url, PASSWORD);
    const lease = { owner: 'instance-a', leaseMs: 5 * 60_000 };
    // Uploaded: nothing to fetch again.
    await imported(await postSchedule(t, token, fixture('pretalx.xml')));
    expect(await refreshSchedule(t.app.deps, lease)).toBeNull();

    await imported(
      await postSchedule(
        t,
        token,
        JSON.stringify({ url: `${files.url}/pretalx.json` }),
        'application/json',
      ),
    );
    expect((await refreshSchedule(t.app.deps, lease))?.sessions.unchanged).toBe(11);
    // Another instance waits while the lease holds, and takes it once it ran out.
    expect(await refreshSchedule(t.app.deps, { ...lease, owner: 'instance-b' })).toBeNull();
    clock.advance(5 * 60_000 + 1);
    expect((await refreshSchedule(t.app.deps, { ...lease, owner: 'instance-b' }))?.rooms).toBe(3);
    // After the last session: the programme is left alone.
    clock.advance(3 * 86_400_000);
    expect(await refreshSchedule(t.app.deps, { ...lease, owner: 'instance-b' })).toBeNull();
  });
});

/** A programme as large as the largest real ones: 3 days, 30 rooms, 900 talks, 1,000 people. */
function largeSchedule(version: number): string {
  const rooms = Array.from({ length: 30 }, (_, i) => `Room ${i + 1}`);
  const days: string[] = [];
  let talk = 0;
  for (let day = 1; day <= 3; day += 1) {
    const date = `2026-09-${String(10 + day).padStart(2, '0')}`;
    const perRoom = rooms.map((room, r) => {
      const events: string[] = [];
      for (let slot = 0; slot < 10; slot += 1) {
        talk += 1;
        // Everyone speaks: one person per talk, a second on the first hundred.
        const persons = [talk - 1, 900 + talk - 1]
          .slice(0, talk <= 100 ? 2 : 1)
          .map(
            (p) =>
              `<person id="${p}" code="P${p}" guid="person-${p}">Person Nummer ${p} Ünïcødé</person>`,
          )
          .join('');
        const hour = String(9 + slot).padStart(2, '0');
        events.push(
          `<event guid="talk-${talk}" id="${talk}"><date>${date}T${hour}:00:00+02:00</date><start>${hour}:00</start><duration>00:45</duration><room>${room}</room><title>Talk ${talk} &amp; more (v${talk === 1 ? version : 1})</title><track>Track ${r % 8}</track><abstract>${'An abstract of the talk. '.repeat(40)}</abstract><description>${'A description. '.repeat(130)}</description><persons>${persons}</persons></event>`,
        );
      }
      return `<room name="${room}">${events.join('\n')}</room>`;
    });
    days.push(`<day index="${day}" date="${date}">${perRoom.join('\n')}</day>`);
  }
  return `<?xml version="1.0"?><schedule><conference><title>Big</title><time_zone_name>Europe/Brussels</time_zone_name></conference>${days.join('\n')}</schedule>`;
}

describe.each(testDatabases)('a large programme (%s)', (database) => {
  const t: TestApp = useTestApp({ database, env: { ADMIN_PASSWORD: PASSWORD } });

  it('900 talks, 30 rooms, 1,000 people import in seconds, and again without duplicating', async () => {
    const token = await adminToken(t.url, PASSWORD);
    const xml = largeSchedule(1);
    let started = performance.now();
    const first = await imported(await postSchedule(t, token, xml));
    const firstMs = performance.now() - started;
    expect(first).toEqual({
      rooms: 30,
      sessions: { added: 900, updated: 0, unchanged: 0, cancelled: 0, deleted: 0 },
      speakers: { added: 1000, matched: 0 },
    });
    started = performance.now();
    const again = await imported(await postSchedule(t, token, largeSchedule(2)));
    const againMs = performance.now() - started;
    expect(again).toEqual({
      rooms: 30,
      sessions: { added: 0, updated: 1, unchanged: 899, cancelled: 0, deleted: 0 },
      speakers: { added: 0, matched: 1000 },
    });
    console.info(
      `schedule import (${database}): ${(xml.length / 1024 / 1024).toFixed(1)} MB, 900 talks, 1,000 people: first ${Math.round(firstMs)} ms, again ${Math.round(againMs)} ms`,
    );
    expect(firstMs).toBeLessThan(15_000);
    expect(againMs).toBeLessThan(10_000);
  }, 60_000);
});
