import { beforeAll, describe, expect, it } from 'vitest';
import { moderationRoom } from '../../shared/events.ts';
import type { Speaker } from '../../shared/schemas/speaker.ts';
import {
  type TestSocket,
  addSpeakerWithSecret,
  adminToken,
  askQuestion,
  call,
  collect,
  speakerToken,
} from '../../../tests/support/speakers.ts';
import {
  type TestApp,
  testDatabases,
  useTestApp,
  useWatchingSockets,
} from '../../../tests/support/test-app.ts';

const PASSWORD = 'revocation-admin-password';

/**
 * A new secret, or the speaker's deletion, ends the moderation room every socket opened with
 * the speaker's old token, on every instance (decision 196).
 * `admin` is where the admin acts, `sockets` where the speaker's screens are connected.
 */
function revocationTests(admin: TestApp, sockets: TestApp) {
  const watch = useWatchingSockets(sockets);
  let token: string;

  beforeAll(async () => {
    token = await adminToken(admin.url, PASSWORD);
    const moderated = await call(admin.url, 'PUT', '/api/admin/settings', {
      token,
      body: { moderateQuestions: true },
    });
    expect(moderated.status).toBe(200);
  });

  const signUp = async (name: string) => {
    const { speaker, secret } = await addSpeakerWithSecret(admin.url, name);
    return { speaker, token: await speakerToken(admin.url, speaker.username, secret) };
  };
  const pendingQuestion = (speaker: Speaker, text: string) =>
    askQuestion(admin.url, { speakerId: speaker._id, question: text, askerUsername: 'grace' });
  /** The sockets of every instance in the speaker's moderation room. */
  const inModerationRoom = async (speaker: Speaker) =>
    (await sockets.app.deps.realtime.io.in(moderationRoom(speaker._id)).fetchSockets()).length;
  const moderating = (speakerToken: string): Promise<TestSocket> =>
    watch([{ room: 'moderation', token: speakerToken }]);

  it('a new secret ends the moderation room of sockets that joined with the old token', async () => {
    const { speaker, token: old } = await signUp('Revoked Speaker');
    const stale = await moderating(old);
    const staleNew = collect(stale, 'newQuestion');
    const before = await pendingQuestion(speaker, 'Seen before the new secret?');
    expect(before.status).toBe('pending');
    await expect.poll(() => staleNew.map((event) => event.question._id)).toEqual([before._id]);

    const renewed = await call(admin.url, 'POST', `/api/speakers/${speaker._id}/secret`, {
      token,
    });
    expect(renewed.status).toBe(200);
    const { secret } = (await renewed.json()) as { secret: string };
    await expect.poll(() => inModerationRoom(speaker)).toBe(0);

    const fresh = await moderating(await speakerToken(admin.url, speaker.username, secret));
    const freshNew = collect(fresh, 'newQuestion');
    const after = await pendingQuestion(speaker, 'Seen after the new secret?');
    await expect.poll(() => freshNew.map((event) => event.question._id)).toEqual([after._id]);
    // A question that reached the new token's socket was sent to the old one's too, if ever.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(staleNew.map((event) => event.question._id)).toEqual([before._id]);

    // The old token cannot join again; the socket may still watch the public rooms.
    expect(await stale.emitWithAck('watch', { room: 'moderation', token: old })).toBe(false);
    expect(await stale.emitWithAck('watch', { room: 'speaker', speakerId: speaker._id })).toBe(
      true,
    );
  });

  it('a new secret leaves the speaker’s other screens and the admin’s room alone', async () => {
    const { speaker, token: old } = await signUp('Other Screens Speaker');
    const other = await signUp('Untouched Speaker');
    await moderating(old);
    const untouched = collect(await moderating(other.token), 'newQuestion');
    const adminNew = collect(await moderating(token), 'newQuestion');
    expect(
      (await call(admin.url, 'POST', `/api/speakers/${speaker._id}/secret`, { token })).status,
    ).toBe(200);
    await expect.poll(() => inModerationRoom(speaker)).toBe(0);
    const question = await pendingQuestion(other.speaker, 'Still here?');
    await expect.poll(() => untouched.map((event) => event.question._id)).toEqual([question._id]);
    await expect.poll(() => adminNew.map((event) => event.question._id)).toContain(question._id);
  });

  it('deleting a speaker ends the moderation room of their sockets', async () => {
    const { speaker, token: old } = await signUp('Deleted Speaker');
    const socket = await moderating(old);
    expect(await inModerationRoom(speaker)).toBe(1);
    expect(
      (await call(admin.url, 'DELETE', `/api/speakers/${speaker._id}`, { token })).status,
    ).toBe(200);
    await expect.poll(() => inModerationRoom(speaker)).toBe(0);
    expect(await socket.emitWithAck('watch', { room: 'moderation', token: old })).toBe(false);
  });
}

describe.each(testDatabases)('revoking a speaker’s token on %s', (database) => {
  const t = useTestApp({ database, env: { ADMIN_PASSWORD: PASSWORD } });
  revocationTests(t, t);
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'revoking a speaker’s token through one instance of two on PostgreSQL',
  () => {
    const a = useTestApp({ database: 'postgres', env: { ADMIN_PASSWORD: PASSWORD } });
    const b = useTestApp(() => ({
      database: 'postgres',
      env: { ADMIN_PASSWORD: PASSWORD, DATABASE_SCHEMA: a.config.databaseSchema ?? '' },
    }));
    revocationTests(a, b);
  },
);
