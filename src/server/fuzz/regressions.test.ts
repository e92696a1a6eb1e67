import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { send } from '../../../tests/support/http-fuzz.ts';

/** Requests the fuzzer once answered with a 5xx or a broken answer, kept as plain tests. */
describe.each(testDatabases)('fuzzer findings stay fixed (%s)', (database) => {
  const t = useTestApp({ database });

  const part = (name: string, filename?: string, data = '') =>
    `--b\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n${data}\r\n`;

  it('a multipart upload without a boundary is a 400, not a 500', async () => {
    const body = Buffer.from(
      `${part('caption', undefined, 'x')}${part('files', 'e.png', 'y')}--b--\r\n`,
    );
    for (const path of ['/api/memories', '/api/speakersadd']) {
      const answer = await send(t.url, {
        method: 'POST',
        path,
        headers: { 'content-type': 'multipart/form-data' },
        body,
      });
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });

  it('a multipart upload cut off in the middle of a file is a 400 and stores nothing', async () => {
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#abc' } })
      .png()
      .toBuffer();
    const whole = Buffer.concat([
      Buffer.from(`${part('caption', undefined, 'x')}${part('username', undefined, 'y')}`),
      Buffer.from('--b\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\n'),
      png,
      Buffer.from('\r\n--b--\r\n'),
    ]);
    const answer = await send(t.url, {
      method: 'POST',
      path: '/api/memories',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: whole.subarray(0, whole.length - 40),
    });
    expect(answer.status).toBe(400);
    expect(await t.storedMediaKeys('memories/')).toEqual([]);
  });

  it('a NUL character in an address is a 400 on every database', async () => {
    for (const path of [
      '/api/speakers/a%00.png/dashboard',
      '/api/questions/realtime?askerUsername=a%00b',
      '/api/memory/%00',
    ]) {
      const answer = await send(t.url, { method: 'GET', path, headers: {}, body: undefined });
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });
});
