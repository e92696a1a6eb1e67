import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnswerMemo } from '../http/transport/answer-memo.ts';
import { sharedBus } from '../../../tests/support/shared-bus.ts';
import { ListCache, WHOLE_LIST } from './list-cache.ts';
import { forgetChangedLists } from './list-events.ts';
import { questionsScope, scopesChangedBy } from './question-scopes.ts';

/** A table of rows per scope, read by the cache as the repositories would read it. */
function fakeDatabase() {
  const counts = new Map<string, number>();
  const reads: string[] = [];
  const reader = (scope: string) => {
    reads.push(scope);
    const count = counts.get(scope) ?? 0;
    return Promise.resolve({ newestId: count ? `id-${count}` : null, count });
  };
  const add = (...scopes: string[]) => {
    for (const scope of scopes) counts.set(scope, (counts.get(scope) ?? 0) + 1);
  };
  return { reader, add, reads };
}

const cacheOn = (reader: (scope: string) => Promise<{ newestId: string | null; count: number }>) =>
  new ListCache(
    {
      memories: reader,
      speakers: reader,
      questions: reader,
      schedule: reader,
      reports: reader,
      polls: reader,
    },
    new AnswerMemo(),
  );

describe('ListCache', () => {
  it('keeps a read in flight when another scope changes, and drops it when its own does', async () => {
    let release: (() => void) | undefined;
    const reader = (scope: string) =>
      new Promise<{ newestId: string | null; count: number }>((resolve) => {
        release = () => resolve({ newestId: `id-${scope}`, count: 1 });
      });
    const lists = cacheOn(reader);
    const ada = questionsScope('speaker-ada');
    const grace = questionsScope('speaker-grace');
    const reading = lists.version('questions', ada);
    // A vote on Grace's question while Ada's version is being read.
    lists.forget('questions', [grace]);
    release?.();
    const version = await reading;
    expect(lists.peek('questions', ada)).toBe(version);
    const again = lists.version('questions', grace);
    lists.forget('questions', [grace]);
    release?.();
    await again;
    expect(lists.peek('questions', grace)).toBeUndefined();
  });

  it('reads a version once, and again only after a change names its scope', async () => {
    const db = fakeDatabase();
    const lists = cacheOn(db.reader);
    const ada = questionsScope('speaker-ada');
    const grace = questionsScope('speaker-grace');
    expect(lists.peek('questions', ada)).toBeUndefined();
    const first = await lists.version('questions', ada);
    await lists.version('questions', grace);
    expect(await lists.version('questions', ada)).toBe(first);
    expect(lists.peek('questions', ada)).toBe(first);
    expect(db.reads).toEqual([ada, grace]);

    // A question to Ada changes her scopes and everybody's, not Grace's.
    db.add(ada, questionsScope());
    lists.forget('questions', scopesChangedBy({ speakerId: 'speaker-ada', askerUsername: 'x' }));
    expect(lists.peek('questions', ada)).toBeUndefined();
    expect(lists.peek('questions', grace)).toBeDefined();
    expect(await lists.version('questions', ada)).not.toBe(first);

    // A change that names no scope forgets the whole list.
    lists.forget('questions');
    expect(lists.peek('questions', grace)).toBeUndefined();
  });

  it('answers the polls that miss together with one read, and a poll after a change with a new one', async () => {
    const db = fakeDatabase();
    const lists = cacheOn(db.reader);
    const versions = await Promise.all(
      Array.from({ length: 50 }, () => lists.version('memories', WHOLE_LIST)),
    );
    expect(new Set(versions).size).toBe(1);
    expect(db.reads).toEqual([WHOLE_LIST]);

    const during = lists.version('memories', WHOLE_LIST);
    db.add(WHOLE_LIST);
    lists.forget('memories');
    const after = await Promise.all([
      lists.version('memories', WHOLE_LIST),
      lists.version('memories', WHOLE_LIST),
    ]);
    expect(await during).toBe(versions[0]);
    expect(after[0]).not.toBe(versions[0]);
    expect(after[1]).toBe(after[0]);
    expect(db.reads).toEqual([WHOLE_LIST, WHOLE_LIST]);
  });

  it('does not keep a version read before a change that came while it was read', async () => {
    let release: () => void = () => undefined;
    const slow = () =>
      new Promise<{ newestId: string | null; count: number }>((resolve) => {
        release = () => resolve({ newestId: 'old', count: 1 });
      });
    const lists = cacheOn(slow);
    const reading = lists.version('memories', WHOLE_LIST);
    lists.forget('memories');
    release();
    expect(await reading).toBe('1.old');
    expect(lists.peek('memories', WHOLE_LIST)).toBeUndefined();
  });

  it("forgets what another instance's write changed, through the events", async () => {
    const db = fakeDatabase();
    const instance = sharedBus();
    const [hereEvents, thereEvents] = [await instance(), await instance()];
    const here = cacheOn(db.reader);
    hereEvents.subscribe('caches', forgetChangedLists(here));
    const before = await here.version('memories', WHOLE_LIST);
    db.add(WHOLE_LIST);
    await thereEvents.publish({ type: 'memoryDeleted', id: 'memory-1' });
    expect(here.peek('memories', WHOLE_LIST)).toBeUndefined();
    expect(await here.version('memories', WHOLE_LIST)).not.toBe(before);
  });

  it('makes a view’s JSON once per tag and each encoding once, and retries a failed read', async () => {
    const lists = cacheOn(fakeDatabase().reader);
    const json = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, text: 'hello' })));
    let loads = 0;
    const load = () => {
      loads += 1;
      return Promise.resolve(json);
    };
    const tag = lists.tag('gallery', '1.a');
    expect(tag).toMatch(/^W\/"[\w-]{22}"$/);
    expect(lists.tag('gallery', '1.a')).toBe(tag);
    expect(lists.tag('gallery', '2.b')).not.toBe(tag);

    const plain = await lists.body('gallery', tag, load, undefined);
    const br = await lists.body('gallery', tag, load, 'br');
    const brAgain = await lists.body('gallery', tag, load, 'br');
    const gzip = await lists.body('gallery', tag, load, 'gzip');
    expect(loads).toBe(1);
    expect(plain).toEqual({ body: Buffer.from(json), encoding: undefined });
    expect(br.encoding).toBe('br');
    expect(brAgain.body).toBe(br.body);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(json);
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(json);

    await lists.body('gallery', lists.tag('gallery', '2.b'), load, undefined);
    expect(loads).toBe(2);

    const failing = () => Promise.reject(new Error('database down'));
    const next = lists.tag('gallery', '3.c');
    await expect(lists.body('gallery', next, failing, undefined)).rejects.toThrow('database down');
    expect((await lists.body('gallery', next, load, undefined)).body.toString()).toBe(json);
  });

  it('hands out a body made already at once, and only that tag’s in that encoding', async () => {
    const lists = cacheOn(fakeDatabase().reader);
    const json = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, text: 'hello' })));
    const small = JSON.stringify([{ id: 1 }]);
    const first = lists.tag('gallery', '1.a');
    const second = lists.tag('gallery', '2.b');
    expect(lists.madeBody('gallery', first, undefined)).toBeUndefined();

    const making = lists.body('gallery', first, () => Promise.resolve(json), undefined);
    // Asked for, not made yet: the poll waits for the one read under way.
    expect(lists.madeBody('gallery', first, undefined)).toBeUndefined();
    const plain = await making;
    expect(lists.madeBody('gallery', first, undefined)).toEqual(plain);
    // Brotli is made on its first request, off the event loop; then it is at hand.
    expect(lists.madeBody('gallery', first, 'br')).toBeUndefined();
    const br = await lists.body('gallery', first, () => Promise.resolve(json), 'br');
    expect(lists.madeBody('gallery', first, 'br')).toEqual(br);
    expect(lists.madeBody('gallery', first, 'gzip')).toBeUndefined();
    // Another version's poll does not get this one's body.
    expect(lists.madeBody('gallery', second, undefined)).toBeUndefined();
    expect(lists.madeBody('speakers', first, undefined)).toBeUndefined();

    // Too small to compress: the body as it is, whatever the encoding asked for.
    const tiny = lists.tag('speakers', '1.a');
    await lists.body('speakers', tiny, () => Promise.resolve(small), undefined);
    expect(lists.madeBody('speakers', tiny, 'br')).toEqual({
      body: Buffer.from(small),
      encoding: undefined,
    });

    // A failed read leaves nothing behind to hand out.
    await expect(
      lists.body('gallery', second, () => Promise.reject(new Error('down')), undefined),
    ).rejects.toThrow('down');
    expect(lists.madeBody('gallery', second, undefined)).toBeUndefined();
  });
});
