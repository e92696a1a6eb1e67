import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryPostResponseSchema } from '../../shared/schemas/memory.ts';
import { questionSchema } from '../../shared/schemas/question.ts';
import { addSpeaker, bearer, call, joinAttendee } from '../../../tests/support/speakers.ts';
import { type TestApp, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';

const UPLOAD_REFUSAL = { error: 'You can only upload as yourself', code: 'FORBIDDEN' };
const ASK_REFUSAL = { error: 'You can only ask as yourself', code: 'FORBIDDEN' };

const png = () =>
  sharp({ create: { width: 24, height: 16, channels: 3, background: '#e8590c' } })
    .png()
    .toBuffer();

/** `POST /api/memories` as a form: one picture, the caption and the username given. */
async function postForm(t: TestApp, username: string, token?: string): Promise<Response> {
  const form = new FormData();
  form.append('caption', `Posted as ${username}`);
  form.append('username', username);
  form.append('files', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'a.png');
  return call(t.url, 'POST', '/api/memories', { form, token });
}

/** Starts a resumable upload of one small picture under `username`. */
async function startUpload(t: TestApp, username: string, token: string): Promise<Response> {
  const metadata = { filename: 'a.png', filetype: 'image/png', caption: 'Resumable', username };
  return fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      ...bearer(token),
      'upload-length': '100',
      'upload-metadata': Object.entries(metadata)
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(','),
    },
  });
}

const memoryRows = async (t: TestApp) =>
  (await t.app.deps.db.selectFrom('memories').select('username').execute()).map(
    (row) => row.username,
  );

describe.each(testDatabases)('posting under the token’s own username on %s', (database) => {
  const t = useTestApp({
    database,
    env: { WRITE_RATE_LIMIT: '10000', QUESTIONS_PER_MINUTE: '600' },
  });
  let alice2: string;
  let speakerId: string;

  beforeAll(async () => {
    alice2 = await joinAttendee(t.url, 'alice2');
    speakerId = (await addSpeaker(t.url, 'Barbara Liskov'))._id;
  });

  describe('a memory posted as a form', () => {
    it('refuses another username with the token of alice2 (403), and stores nothing', async () => {
      const before = await memoryRows(t);
      const filesBefore = await t.storedMediaKeys('memories/');
      const response = await postForm(t, 'the-admin', alice2);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject(UPLOAD_REFUSAL);
      // Another case of the same letters is another username, as on the resumable path.
      const otherCase = await postForm(t, 'Alice2', alice2);
      expect(otherCase.status).toBe(403);
      expect(await otherCase.json()).toMatchObject(UPLOAD_REFUSAL);
      expect(await memoryRows(t)).toEqual(before);
      expect(await t.storedMediaKeys('memories/')).toEqual(filesBefore);
    });

    it('takes the token’s own username (201), compared once invisible characters are gone', async () => {
      for (const username of ['alice2', ' alice2\u200B\u202E ']) {
        const response = await postForm(t, username, alice2);
        expect(response.status, username).toBe(201);
        const { memories } = memoryPostResponseSchema.parse(await response.json());
        expect(memories[0]?.username).toBe('alice2');
      }
    });

    it('takes any username without a token, as the spec’s call does', async () => {
      const response = await postForm(t, 'the-admin');
      expect(response.status).toBe(201);
      const { memories } = memoryPostResponseSchema.parse(await response.json());
      expect(memories[0]?.username).toBe('the-admin');
    });
  });

  describe('a resumable upload', () => {
    it('refuses another username with the token of alice2 (403), and takes its own (201)', async () => {
      const refused = await startUpload(t, 'the-admin', alice2);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject(UPLOAD_REFUSAL);
      expect((await startUpload(t, 'Alice2', alice2)).status).toBe(403);
      expect((await startUpload(t, 'alice2', alice2)).status).toBe(201);
      expect((await startUpload(t, 'alice2\u2060', alice2)).status).toBe(201);
    });
  });

  describe('a question', () => {
    const ask = (askerUsername: string, token?: string) =>
      call(t.url, 'POST', '/questions', {
        token,
        body: {
          speakerId,
          question: `Who am I, ${askerUsername}? ${Math.random()}`,
          askerUsername,
        },
      });

    it('refuses another askerUsername with the token of alice2 (403), and stores nothing', async () => {
      const response = await ask('the-admin', alice2);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject(ASK_REFUSAL);
      const rows = await t.app.deps.db
        .selectFrom('questions')
        .select('asker_username')
        .where('asker_username', '=', 'the-admin')
        .execute();
      expect(rows).toEqual([]);
    });

    it('takes the token’s own username (201), and any username without a token', async () => {
      const own = await ask('alice2', alice2);
      expect(own.status).toBe(201);
      expect(questionSchema.parse(await own.json()).askerUsername).toBe('alice2');
      const anonymous = await ask('the-admin');
      expect(anonymous.status).toBe(201);
      expect(questionSchema.parse(await anonymous.json()).askerUsername).toBe('the-admin');
    });
  });
});
