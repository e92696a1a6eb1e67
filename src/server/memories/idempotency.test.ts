import http from 'node:http';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { joinAttendee } from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
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

  const formOf = (caption: string, file = png, username = 'ann') => {
    const form = new FormData();
    form.append('caption', caption);
    form.append('username', username);
    form.append('files', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'a.png');
    return form;
  };
  // From one client, as the app sends every call: with its client id.
  const post = (caption: string, headers: Record<string, string>, file = png, username = 'ann') =>
    fetch(`${t.url}/api/memories`, {
      method: 'POST',
      body: formOf(caption, file, username),
      headers: { [CLIENT_ID_HEADER]: 'ann', ...headers },
    });
  /**
   * A post without a client id, over `agent`'s connection (a kept-alive one), or a connection of
   * its own when `agent` is false.
   */
  const postOver = async (
    agent: http.Agent | false,
    caption: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; replayed: boolean; body: unknown }> => {
    const encoded = new Request(t.url, { method: 'POST', body: formOf(caption) });
    const bytes = Buffer.from(await encoded.arrayBuffer());
    return new Promise((resolve, reject) => {
      const request = http.request(`${t.url}/api/memories`, {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': encoded.headers.get('content-type') ?? '',
          'content-length': String(bytes.length),
        },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            replayed: response.headers['idempotent-replayed'] === 'true',
            body: JSON.parse(Buffer.concat(chunks).toString()) as unknown,
          });
        });
      });
      request.end(bytes);
    });
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
      png,
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

  it("never answers one client's post to another client sending the same key", async () => {
    const first = await post('From ann', { 'idempotency-key': 'shared-anon' });
    expect(first.status).toBe(201);
    // Another client id at the same address: its own post.
    const other = await post('From eve', {
      'idempotency-key': 'shared-anon',
      [CLIENT_ID_HEADER]: 'eve',
    });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    const body = memoryPostResponseSchema.parse(await other.json());
    expect(body.memories.map((m) => m.text)).toEqual(['From eve']);
    expect(await mine('From eve')).toHaveLength(1);
    // Without a client id, a client is its connection: its own repeat on it is answered...
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const once = await postOver(agent, 'No client id', { 'idempotency-key': 'shared-anon' });
      expect(once.status).toBe(201);
      expect(once.replayed).toBe(false);
      const again = await postOver(agent, 'No client id', { 'idempotency-key': 'shared-anon' });
      expect(again.status).toBe(201);
      expect(again.replayed).toBe(true);
      expect(again.body).toEqual(once.body);
    } finally {
      agent.destroy();
    }
    // ...and another connection's post is not.
    const elsewhere = await postOver(false, 'No client id', { 'idempotency-key': 'shared-anon' });
    expect(elsewhere.replayed).toBe(false);
    expect(await mine('No client id')).toHaveLength(2);
    // An attendee is the same client whatever client id each of their calls carries.
    const phone = await post('Attendee post', {
      'idempotency-key': 'attendee-key',
      authorization: `Bearer ${token}`,
      [CLIENT_ID_HEADER]: 'phone',
    });
    const laptop = await post('Attendee post', {
      'idempotency-key': 'attendee-key',
      authorization: `Bearer ${token}`,
      [CLIENT_ID_HEADER]: 'laptop',
    });
    expect(laptop.headers.get('idempotent-replayed')).toBe('true');
    expect(await laptop.json()).toEqual(await phone.json());
  });

  it('refuses a key sent again with another body, and keeps nothing of it', async () => {
    const first = await post('Body one', { 'idempotency-key': 'reused' });
    expect(first.status).toBe(201);
    const stored = await t.storedMediaKeys('memories/');
    const keysBefore = await keys();
    const otherCaption = await post('Body two', { 'idempotency-key': 'reused' });
    expect(otherCaption.status).toBe(422);
    expect(await otherCaption.json()).toMatchObject({
      error: expect.stringContaining('another post') as unknown,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    const otherPicture = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#a00' },
    })
      .png()
      .toBuffer();
    const otherFile = await post('Body one', { 'idempotency-key': 'reused' }, otherPicture);
    expect(otherFile.status).toBe(422);
    expect(await mine('Body two')).toHaveLength(0);
    expect(await mine('Body one')).toHaveLength(1);
    expect(await t.storedMediaKeys('memories/')).toEqual(stored);
    expect(await keys()).toEqual(keysBefore);
    // The exact repeat still gets the first answer.
    const repeat = await post('Body one', { 'idempotency-key': 'reused' });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses the other of two different posts sent with one key at once', async () => {
    const mediaBefore = await t.storedMediaKeys('memories/');
    const answers = await Promise.all([
      post('Race one', { 'idempotency-key': 'race' }),
      post('Race two', { 'idempotency-key': 'race' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expect([...(await mine('Race one')), ...(await mine('Race two'))]).toHaveLength(1);
    // The refused post's files went with it.
    expect((await t.storedMediaKeys('memories/')).length - mediaBefore.length).toBe(2);
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
