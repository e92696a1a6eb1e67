import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryPostResponseSchema } from '../../shared/schemas/memory.ts';
import { type TestApp, useTestApp } from '../../../tests/support/test-app.ts';
import { animationFrames } from './image-pipeline.ts';
import { ImageQueue, ImageQueueFullError } from './image-queue.ts';

const GIFS = 20;

/** An animated GIF as a phone's screen recording makes them: 76 frames of 720 × 720. */
async function heavyGif(): Promise<Buffer> {
  const frames = await Promise.all(
    Array.from({ length: 76 }, (_, i) => {
      const pixels = Buffer.alloc(48 * 48 * 3);
      let state = i * 2654435761 + 1;
      for (let k = 0; k < pixels.length; k += 1) {
        state = (state * 1103515245 + 12345) >>> 0;
        pixels[k] = (state >>> 24) & 0xf0;
      }
      return sharp(pixels, { raw: { width: 48, height: 48, channels: 3 } })
        .resize(720, 720, { kernel: 'nearest' })
        .png()
        .toBuffer();
    }),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ effort: 1, colours: 16 })
    .toBuffer();
}

const smallPhoto = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: '#1c7ed6' } })
    .jpeg()
    .toBuffer();

function post(t: TestApp, file: Buffer, name: string): Promise<Response> {
  const form = new FormData();
  form.append('caption', name);
  form.append('username', 'ada');
  form.append('files', new Blob([new Uint8Array(file)]), name);
  return fetch(`${t.url}/api/memories`, { method: 'POST', body: form });
}

describe('the animation budget', () => {
  it('keeps at most 50 frames and 16 megapixels over all of them', () => {
    expect(animationFrames({ frames: 76, width: 720, height: 720 }, 2048)).toBe(30);
    expect(animationFrames({ frames: 10, width: 720, height: 720 }, 2048)).toBe(10);
    expect(animationFrames({ frames: 200, width: 200, height: 100 }, 2048)).toBe(50);
    expect(animationFrames({ frames: 300, width: 8000, height: 8000 }, 2048)).toBe(3);
  });
});

describe('the image queue', () => {
  const deferred = () => {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve: () => resolve() };
  };

  it('keeps a worker for still photos, starts them before waiting animations, and refuses what would wait too long', async () => {
    const queue = new ImageQueue({ slots: 2, maxWaitMs: 60_000 });
    const started: string[] = [];
    const jobs = new Map<string, ReturnType<typeof deferred>>();
    const run = (lane: 'still' | 'animated', name: string) => {
      const job = deferred();
      jobs.set(name, job);
      return queue.run(lane, async () => {
        started.push(name);
        await job.promise;
      });
    };
    const all = [run('animated', 'gif 1'), run('animated', 'gif 2'), run('animated', 'gif 3')];
    await Promise.resolve();
    // Two workers: one animation runs, the other worker stays free for photos.
    expect(started).toEqual(['gif 1']);
    all.push(run('still', 'photo'));
    await Promise.resolve();
    expect(started).toEqual(['gif 1', 'photo']);
    jobs.get('photo')?.resolve();
    jobs.get('gif 1')?.resolve();
    await expect.poll(() => started).toEqual(['gif 1', 'photo', 'gif 2']);

    const tight = new ImageQueue({ slots: 1, maxWaitMs: 6_000 });
    const blocker = deferred();
    const first = tight.run('animated', () => blocker.promise);
    const second = tight.run('animated', () => Promise.resolve());
    // The third would wait for two animations of about 5 s each (the first guess).
    const refused = tight.run('animated', () => Promise.resolve());
    await expect(refused).rejects.toBeInstanceOf(ImageQueueFullError);
    await expect(refused).rejects.toMatchObject({ statusCode: 503, retryAfterSeconds: 10 });
    blocker.resolve();
    await Promise.all([first, second]);
    for (const job of jobs.values()) job.resolve();
    await Promise.all(all);
  });
});

describe('20 heavy animated GIFs at once', () => {
  let gif: Buffer;
  beforeAll(async () => {
    gif = await heavyGif();
  }, 60_000);

  describe('with the default queue limit', () => {
    const t = useTestApp({ env: { WRITE_RATE_LIMIT: '1000' } });

    it('a small photo posted meanwhile is stored within 15 s; the GIFs keep a budget of frames and a still thumbnail', async () => {
      const gifs = Array.from({ length: GIFS }, (_, i) => post(t, gif, `anim-${i}.gif`));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const started = Date.now();
      const photo = await post(t, await smallPhoto(), 'photo.jpg');
      const tookMs = Date.now() - started;
      expect(photo.status).toBe(201);
      console.log(`[animated] small photo stored in ${tookMs} ms beside ${GIFS} GIFs`);
      expect(tookMs).toBeLessThan(15_000);

      const answers = await Promise.all(gifs);
      for (const answer of answers) {
        expect([201, 503]).toContain(answer.status);
        if (answer.status === 503)
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      const stored = answers.find((answer) => answer.status === 201);
      const [memory] = memoryPostResponseSchema.parse(await stored?.json()).memories;
      const large = await sharp(
        Buffer.from(await (await fetch(`${t.url}${memory?.media ?? ''}`)).arrayBuffer()),
      ).metadata();
      const thumbnail = await sharp(
        Buffer.from(await (await fetch(`${t.url}${memory?.thumbnail ?? ''}`)).arrayBuffer()),
      ).metadata();
      expect(large.pages).toBe(30);
      expect(thumbnail.pages ?? 1).toBe(1);
    }, 180_000);
  });

  describe('with a short queue limit', () => {
    const t = useTestApp({ env: { WRITE_RATE_LIMIT: '1000', MAX_IMAGE_QUEUE_WAIT: '3s' } });

    it('sheds what would wait too long with 503 and a Retry-After from the queue', async () => {
      const answers = await Promise.all(
        Array.from({ length: GIFS }, (_, i) => post(t, gif, `anim-${i}.gif`)),
      );
      const shed = answers.filter((answer) => answer.status === 503);
      expect(shed.length).toBeGreaterThan(0);
      const waits = shed.map((answer) => Number(answer.headers.get('retry-after')));
      for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(3);
      expect(await shed[0]?.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      // Nothing of the shed posts was kept.
      const listed = (await (await fetch(`${t.url}/api/memory?limit=200`)).json()) as unknown[];
      expect(listed.length).toBe(GIFS - shed.length);
    }, 180_000);
  });
});
