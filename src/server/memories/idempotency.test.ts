import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { joinAttendee } from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { memoryListSchema, memoryPostResponseSchema } from '../../shared/schemas/memory.ts';
import { sweepAbandonedUploads } from '../uploads/upload.service.ts';
import { openResumableStore } from '../uploads/upload.service.ts';

describe.each(testDatabases)('POST /api/memories with Idempotency-Key (%s)', (database) => {
  const t = useTestApp({ database });
  let token: string;
  let png: Buffer;

  beforeAll(async () => {
    token = await joinAttendee(t.url, 'ann');
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer();
  });

  const post = (caption: string, headers: Record<string, string>, username = 'ann') => {
    const form = new FormData();
    form.append('caption', caption);
    form.append('username', username);
    form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
    return fetch(`${t.url}/api/memories`, { method: 'POST', body: form, headers });
  };
  const mine = async (caption: string) => {
    const list = memoryListSchema.parse(await (await fetch(`${t.url}/api/memory?limit=50`)).json());
    return list.filter((m) => m.text === caption);
  };
  const keys = async () => t.app.deps.db.selectFrom('idempotency_keys').selectAll().execute();

  it('answers a repeat with the first result and creates nothing', async () => {
    const first = await post('Once', { 'idempotency-key': 'key-1' });
    expect(first.status).toBe(201);
    const body = memoryPostResponseSchema.parse(await first.json());
    const mediaAfterFirst = await t.storedMediaKeys('memories/');
    const again = await post('Once', { 'idempotency-key': 'key-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(memoryPostResponseSchema.parse(await again.json())).toEqual(body);
    expect(await mine('Once')).toHaveLength(1);
    expect(await t.storedMediaKeys('memories/')).toEqual(mediaAfterFirst);
    // Another key is another post.
    expect((await post('Once', { 'idempotency-key': 'key-2' })).status).toBe(201);
    expect(await mine('Once')).toHaveLength(2);
  });

  it('makes one post when the same key arrives twice at once', async () => {
    const mediaBefore = await t.storedMediaKeys('memories/');
    const answers = await Promise.all([
      post('At once', { 'idempotency-key': 'same-time' }),
      post('At once', { 'idempotency-key': 'same-time' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    const [a, b] = await Promise.all(answers.map(async (r) => (await r.json()) as unknown));
    expect(a).toEqual(b);
    expect(await mine('At once')).toHaveLength(1);
    // The loser's files went with its rolled-back post.
    expect((await t.storedMediaKeys('memories/')).length - mediaBefore.length).toBe(2);
  });

  it('keeps keys per attendee: the same key from somebody else is their own post', async () => {
    const bob = await joinAttendee(t.url, 'bob');
    await post('Scoped', { 'idempotency-key': 'shared', authorization: `Bearer ${token}` });
    // With a token, a post goes out under the token's own username (decision 194).
    const other = await post(
      'Scoped',
      { 'idempotency-key': 'shared', authorization: `Bearer ${bob}` },
      'bob',
    );
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(await mine('Scoped')).toHaveLength(2);
  });

  it('refuses a malformed key or a forged token, and stores nothing', async () => {
    const before = await t.storedMediaKeys('memories/');
    const bad = await post('Bad key', { 'idempotency-key': 'x'.repeat(101) });
    expect(bad.status).toBe(400);
    expect(typeof ((await bad.json()) as { error?: unknown }).error).toBe('string');
    const forged = await post('Forged', {
      'idempotency-key': 'k',
      authorization: `Bearer ${token.slice(0, -3)}abc`,
    });
    expect(forged.status).toBe(401);
    expect(await t.storedMediaKeys('memories/')).toEqual(before);
    expect(await mine('Bad key')).toHaveLength(0);
  });

  it('does not keep a refused post: the same key can be sent again, fixed', async () => {
    const form = new FormData();
    form.append('caption', 'Fixed');
    form.append('username', 'ann');
    form.append('files', new Blob(['not a picture'], { type: 'image/png' }), 'a.png');
    const refused = await fetch(`${t.url}/api/memories`, {
      method: 'POST',
      body: form,
      headers: { 'idempotency-key': 'fix-me' },
    });
    expect(refused.status).toBe(415);
    expect((await post('Fixed', { 'idempotency-key': 'fix-me' })).status).toBe(201);
    expect(await mine('Fixed')).toHaveLength(1);
  });

  it('forgets keys after two days, never within one', async () => {
    const count = (await keys()).length;
    expect(count).toBeGreaterThan(0);
    const store = await openResumableStore(t.config);
    await sweepAbandonedUploads({ db: t.app.deps.db }, store, Date.now() + 25 * 3_600_000);
    expect(await keys()).toHaveLength(count);
    await sweepAbandonedUploads({ db: t.app.deps.db }, store, Date.now() + 49 * 3_600_000);
    expect(await keys()).toHaveLength(0);
  });
});
