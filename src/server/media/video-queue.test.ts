import { describe, expect, it } from 'vitest';
import { VideoQueue } from './video-queue.ts';

/** A job that runs until it is let go, recording when it started. */
function gate(started: string[], name: string) {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    job: async () => {
      started.push(name);
      await done;
    },
    release: () => release(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the video queue', () => {
  it('keeps a core for uploads: a frame starts beside a running rendition, before waiting ones', async () => {
    const queue = new VideoQueue({ slots: 2, renditionSlots: 1 });
    const started: string[] = [];
    const long = gate(started, 'rendition 1');
    const next = gate(started, 'rendition 2');
    const frame = gate(started, 'frame');
    const runs = [
      queue.run('rendition', 'ada', long.job),
      queue.run('rendition', 'bob', next.job),
      queue.run('frame', '', frame.job),
    ];
    await tick();
    expect(started).toEqual(['rendition 1', 'frame']);
    frame.release();
    await tick();
    // The free core is not taken by a second rendition.
    expect(started).toEqual(['rendition 1', 'frame']);
    long.release();
    await tick();
    expect(started).toEqual(['rendition 1', 'frame', 'rendition 2']);
    next.release();
    await Promise.all(runs);
    expect(queue.stats).toEqual({ waiting: 0, running: { frame: 0, rendition: 0 } });
  });

  it("takes renditions by turn of their owners: one person's ten clips do not hold back another's one", async () => {
    const queue = new VideoQueue({ slots: 1, renditionSlots: 1 });
    const started: string[] = [];
    const jobs = ['ada 1', 'ada 2', 'ada 3', 'bob 1', 'cy 1', 'bob 2'].map((name) => ({
      owner: name.split(' ')[0] ?? '',
      ...gate(started, name),
    }));
    const runs = jobs.map((job) => queue.run('rendition', job.owner, job.job));
    for (const job of jobs) {
      await tick();
      job.release();
    }
    // Released in posting order; each finishes in its turn.
    for (let i = 0; i < jobs.length; i++) {
      for (const job of jobs) job.release();
      await tick();
    }
    await Promise.all(runs);
    expect(started).toEqual(['ada 1', 'bob 1', 'cy 1', 'ada 2', 'bob 2', 'ada 3']);
  });
});
