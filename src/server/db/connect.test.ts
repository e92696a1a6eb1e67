import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.ts';
import { type TestApp, startTestApp, testDatabases } from '../../../tests/support/test-app.ts';
import { migrateToLatest } from './connect.ts';

describe.each(testDatabases)('database on %s', (database) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('migrates at start and stores the spec entities with ids made in code', async () => {
    t = await startTestApp({ database });
    const { db } = t.app.deps;
    const now = new Date().toISOString();
    const speakerId = newId();
    await db
      .insertInto('speakers')
      .values({
        id: speakerId,
        name: 'Ada Lovelace',
        username: 'ada-lovelace',
        stack: 'Analytical engines',
        bio: 'First programmer.',
        picture_key: 'speakers/a.webp',
        avatar_key: null,
        message: 'Ask me anything',
        created_at: now,
      })
      .execute();
    await db.insertInto('questions').values(questionRow(speakerId, now)).execute();
    await db
      .insertInto('memories')
      .values({
        id: newId(),
        post_id: newId(),
        username: 'grace',
        text: 'Keynote!',
        content_type: 'image/webp',
        media_key: 'memories/x.webp',
        thumbnail_key: null,
        width: 10,
        height: 20,
        size_bytes: 5_000_000_000,
        created_at: now,
        metadata_stripped: 1,
      })
      .execute();
    const memory = await db.selectFrom('memories').selectAll().executeTakeFirstOrThrow();
    expect(memory.size_bytes).toBe(5_000_000_000);
    const questions = await db
      .selectFrom('questions')
      .selectAll()
      .where('speaker_id', '=', speakerId)
      .execute();
    expect(questions).toHaveLength(1);
  });

  it('enforces unique speaker usernames and question foreign keys', async () => {
    t = await startTestApp({ database });
    const { db } = t.app.deps;
    const row = {
      name: 'A',
      username: 'same',
      stack: 's',
      bio: 'b',
      picture_key: 'speakers/p.webp',
      avatar_key: null,
      message: '',
      created_at: new Date().toISOString(),
    };
    await db
      .insertInto('speakers')
      .values({ id: newId(), ...row })
      .execute();
    await expect(
      db
        .insertInto('speakers')
        .values({ id: newId(), ...row })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db.insertInto('questions').values(questionRow(newId(), row.created_at)).execute(),
    ).rejects.toThrow();
  });

  it('running the migrations again is a no-op', async () => {
    t = await startTestApp({ database });
    await expect(migrateToLatest(t.app.deps.database)).resolves.toBeUndefined();
  });

  it('ids sort by creation time', () => {
    const ids = Array.from({ length: 50 }, () => newId());
    expect([...ids].sort()).toEqual(ids);
  });
});

/** A question row as the app writes one, for the speaker given. */
function questionRow(speakerId: string, createdAt: string) {
  return {
    id: newId(),
    speaker_id: speakerId,
    speaker_name: 'Ada Lovelace',
    asker_username: 'grace',
    question: 'How do loops work?',
    created_at: createdAt,
    votes: 0,
    answered: 0,
    pinned: 0,
    status: 'published' as const,
    revision: 0,
    asker_id: null,
  };
}
