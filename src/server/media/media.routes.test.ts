import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../tests/support/test-app.ts';
import { downloadName, parseRange } from './media.routes.ts';

describe('media serving', () => {
  const t = useTestApp();
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

  beforeAll(async () => {
    await t.app.deps.media.put('memories/clip.mp4', Readable.from([bytes]), 'video/mp4');
    await t.app.deps.media.put('memories/photo.png', bytes, 'image/png');
  });

  it('serves the bytes with a browser cache of a year, nosniff and its type', async () => {
    const response = await fetch(`${t.url}/media/memories/clip.mp4`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable, s-maxage=0, proxy-revalidate',
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers ranges with 206 and unsatisfiable ones with 416', async () => {
    const partial = await fetch(`${t.url}/media/memories/clip.mp4`, {
      headers: { range: 'bytes=10-19' },
    });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(Buffer.from(await partial.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);

    const suffix = await fetch(`${t.url}/media/memories/clip.mp4`, {
      headers: { range: 'bytes=-5' },
    });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(995))).toBe(true);

    const bad = await fetch(`${t.url}/media/memories/clip.mp4`, {
      headers: { range: 'bytes=5000-' },
    });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe('bytes */1000');
    expect(((await bad.json()) as { error: string }).error).toMatch(/range/i);
  });

  it('?download=1 names the file as the spec says', async () => {
    const video = await fetch(`${t.url}/media/memories/clip.mp4?download=1`);
    expect(video.headers.get('content-disposition')).toBe('attachment; filename="memory.mp4"');
    const image = await fetch(`${t.url}/media/memories/photo.png?download=1`);
    expect(image.headers.get('content-disposition')).toBe('attachment; filename="memory.png"');
  });

  it('refuses traversal and unknown keys with a JSON 404', async () => {
    const secret = path.join(t.dataDir, 'confab.sqlite');
    await expect(fs.stat(secret)).resolves.toBeTruthy();
    for (const url of [
      '/media/../confab.sqlite',
      '/media/%2e%2e/confab.sqlite',
      '/media/memories/%2e%2e%2f%2e%2e%2fconfab.sqlite',
      '/media/memories/..%2f..%2fconfab.sqlite',
      '/media/memories/missing.mp4',
      '/media/memories/photo.PNG',
      '/media/.tmp/x.part',
      '/media/memories/photo.html',
    ]) {
      const response = await fetch(`${t.url}${url}`);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-type'), url).toMatch(/application\/json/);
    }
  });
});

describe('parseRange', () => {
  it('reads single ranges and rejects unsatisfiable ones', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=0-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-10', 100)).toBe('invalid');
    expect(parseRange('bytes=-0', 100)).toBe('invalid');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });
});

describe('downloadName: memory.png and memory.mp4, and memory.<ext> for other types', () => {
  it.each([
    ['memories/a.png', 'memory.png'],
    ['memories/a.mp4', 'memory.mp4'],
    ['memories/a.jpg', 'memory.jpg'],
    ['memories/a.webm', 'memory.webm'],
  ])('%s downloads as %s', (key, name) => {
    expect(downloadName(key)).toBe(name);
  });
});
