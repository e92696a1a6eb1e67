import type { Browser } from '@playwright/test';
import { roomPresentPath } from '../../src/shared/routes.ts';
import type { Session } from '../../src/shared/schemas/programme.ts';
import type { Speaker } from '../../src/shared/schemas/speaker.ts';
import { addRoom, addSession, setTimeZone } from '../../tests/support/programme.ts';
import { addSpeaker, adminToken, askQuestion } from '../../tests/support/speakers.ts';
import type { BenchServer } from '../lib/processes.ts';
import { liveAgainRow, pageMemory } from '../lib/long-running-page.ts';
import { type Row, fmt } from '../lib/report.ts';

/** Sessions the room's projector follows (BENCH_ROOM_SESSIONS): ten a day, over several days. */
const SESSIONS = Number(process.env.BENCH_ROOM_SESSIONS ?? 50);
const PER_DAY = 10;
const SPEAKERS = 10;
/** Questions each session has before the run; each gets one more, live. */
const QUESTIONS_EACH = 5;

/** Session `n`: 09:00 Berlin on day n / 10, one every 45 minutes, each 30 minutes long. */
function slot(n: number): { startsAt: string; endsAt: string } {
  const day = Math.floor(n / PER_DAY);
  const start =
    Date.parse('2026-11-23T09:00:00+01:00') + day * 86_400_000 + (n % PER_DAY) * 45 * 60_000;
  return {
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 30 * 60_000).toISOString(),
  };
}

/**
 * A room's projector left running for days, on a moved clock: it follows `SESSIONS` sessions
 * (ten a day: between talks it shows what is next, after the day's last one the end screen),
 * each showing its questions and one new one arriving live and pinned, with the server restarted
 * half-way. Its JavaScript heap after a garbage collection, after the first session and after
 * the last, beside the speaker's presenter view measured in the same run (`reference`).
 */
export async function roomProjectorRun(
  browser: Browser,
  servers: { current: () => BenchServer; restart: () => Promise<BenchServer> },
  adminPassword: string,
  reference: { start: number; after: number },
): Promise<Row[]> {
  let url = servers.current().url;
  const token = await adminToken(url, adminPassword);
  await setTimeZone(url, token, 'Europe/Berlin');
  const speakers: Speaker[] = [];
  for (let i = 0; i < SPEAKERS; i += 1) speakers.push(await addSpeaker(url, `Room Speaker ${i}`));
  const room = await addRoom(url, token, 'Hall Hopper');
  const sessions: Session[] = [];
  for (let n = 0; n < SESSIONS; n += 1) {
    const speaker = speakers[n % SPEAKERS];
    sessions.push(
      await addSession(url, token, {
        title: `Session ${n}: a talk of the bench's programme`,
        roomId: room._id,
        ...slot(n),
        speakerIds: speaker ? [speaker._id] : [],
      }),
    );
  }
  let asked = 0;
  /** Asks session `n` a question, as a phone that scanned the projector's code does. */
  const ask = async (n: number) => {
    const session = sessions[n];
    if (!session) return '';
    asked += 1;
    const question = `Question ${asked} for session ${n}: how does it scale?`;
    await askQuestion(url, {
      sessionId: session._id,
      question,
      askerUsername: `room-asker-${asked % 50}`,
    });
    return question;
  };
  /** Asks session `n`'s speaker a question and pins it, as the speaker would: shown large. */
  const askAndPin = async (n: number) => {
    const question = await ask(n);
    const listed = (await (
      await fetch(`${url}/api/questions/realtime?sessionId=${sessions[n]?._id ?? ''}`)
    ).json()) as { _id: string; question: string }[];
    const id = listed.find((item) => item.question === question)?._id ?? '';
    const pinned = await fetch(`${url}/api/questions/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pinned: true }),
    });
    if (pinned.status !== 200) throw new Error(`pinning answered ${pinned.status}`);
    return question;
  };
  for (let n = 0; n < SESSIONS; n += 1) {
    for (let i = 0; i < QUESTIONS_EACH; i += 1) await ask(n);
  }

  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  // Each socket of the page, and whether the server has acknowledged a room it watches.
  const sockets: { opened: number; connected: boolean; watching: boolean }[] = [];
  page.on('websocket', (socket) => {
    if (!socket.url().includes('/socket.io/')) return;
    const entry = { opened: Date.now(), connected: false, watching: false };
    sockets.push(entry);
    socket.on('framereceived', ({ payload }) => {
      if (String(payload).startsWith('40')) entry.connected = true;
      if (/^43\d+\[true\]/.test(String(payload))) entry.watching = true;
    });
  });
  const first = sessions[0];
  if (!first) throw new Error('no sessions');
  await page.clock.install({ time: Date.parse(first.startsAt) - 10 * 60_000 });
  await page.goto(`${url}${roomPresentPath(room._id)}`);
  const heading = page.getByRole('heading', { level: 1 });
  const pinned = page.getByRole('article', { name: 'Pinned question' });
  const { heapMb: heap, domNodes } = await pageMemory(page);
  /**
   * Moves the page's clock to `instant`, the timers due on the way firing once, as after a
   * laptop's sleep; and waits until the page is live again: a jump of minutes outlives the
   * socket's heartbeat, so the page connects again, and watches its room if it shows a talk.
   */
  const moveTo = async (instant: number, live: 'connected' | 'watching') => {
    const now = await page.evaluate(() => Date.now());
    const moved = Date.now();
    await page.clock.fastForward(Math.max(0, instant - now));
    const deadline = Date.now() + 30_000;
    while (!sockets.some((entry) => entry.opened >= moved && entry[live])) {
      if (Date.now() > deadline) throw new Error(`the page was not ${live} again`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  let start = NaN;
  let after = NaN;
  /** The first talk of the second day: every speaker's list has been shown once. */
  let dayTwo = NaN;
  let startNodes = NaN;
  let afterNodes = NaN;
  let backLive = NaN;
  let endScreens = 0;
  for (const [n, session] of sessions.entries()) {
    await moveTo(Date.parse(session.startsAt) + 60_000, 'watching');
    await heading.filter({ hasText: session.title }).waitFor({ timeout: 20_000 });
    await pinned.getByText(await askAndPin(n)).waitFor({ timeout: 20_000 });
    if (n === Math.floor(SESSIONS / 2)) {
      // The server restarts in the middle of a talk, and the organiser retitles it: the new
      // title shows once the page is live again, by itself (`scheduleUpdated`, or the read of
      // the programme on connect).
      await servers.restart();
      url = servers.current().url;
      const back = Date.now();
      const title = `${session.title} (moved from the main stage)`;
      const edited = await fetch(`${url}/api/admin/sessions/${session._id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      if (edited.status !== 200) throw new Error(`the edit answered ${edited.status}`);
      await heading.filter({ hasText: title }).waitFor({ timeout: 60_000 });
      backLive = (Date.now() - back) / 1000;
    }
    // The first and the last talk on, settled: the same screen, hours of programme apart. The
    // talks gone by have left the cache on its timers, which the moved clock has fired.
    if (n === 0 || n === PER_DAY || n === SESSIONS - 1) {
      await page.waitForTimeout(3_000);
      if (n === 0) {
        start = await heap();
        startNodes = await domNodes();
      } else if (n === PER_DAY) {
        dayTwo = await heap();
      } else {
        after = await heap();
        afterNodes = await domNodes();
      }
    }
    // Its end: what is next, or the day's end screen after its last talk.
    await moveTo(Date.parse(session.endsAt) + 60_000, 'connected');
    if (n % PER_DAY === PER_DAY - 1) {
      await page.getByText('That’s all').waitFor({ timeout: 20_000 });
      endScreens += 1;
    } else {
      await page.getByText('Next:').waitFor({ timeout: 20_000 });
    }
  }
  await page.close();
  const growth = after - start;
  return [
    {
      name: `room projector: JS heap after GC, after the first and the last of ${SESSIONS} sessions over ${Math.ceil(SESSIONS / PER_DAY)} days on a moved clock (${endScreens} end screens, ${asked} questions, a restart)`,
      value: `${fmt(start, 1)} → ${fmt(dayTwo, 1)} (day 2) → ${fmt(after, 1)} MB (growth ${fmt(growth, 1)} MB; DOM nodes ${startNodes} → ${afterNodes})`,
      reference: `speaker presenter: ${fmt(reference.start, 1)} → ${fmt(reference.after, 1)} MB`,
      ratio: fmt(after / reference.after, 2),
      target: 'flat (< 5 MB growth)',
      met: growth < 5,
    },
    liveAgainRow(
      'room projector',
      'a server restart (a talk retitled by the organiser shown)',
      backLive,
    ),
  ];
}
