import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids.ts';
import { type TestApp, startTestApp, testDatabases } from '../../../tests/support/test-app.ts';
import { type Kysely, sql } from 'kysely';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from './connect.ts';
import * as originalKey from './migrations/0005-original-key.ts';
import * as idempotencyPerClient from './migrations/0009-idempotency-per-client.ts';
import * as panelQuestions from './migrations/0017-panel-questions.ts';

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
        original_key: null,
        poster_key: null,
        processing: 0,
        render_owner: null,
        render_lease_until: null,
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

  it('0005 gives every memory stored before it a master: its stored file', async () => {
    t = await startTestApp({ database });
    const { db } = t.app.deps;
    const untyped = db as unknown as Kysely<unknown>;
    await originalKey.down(untyped);
    const id = newId();
    await sql`insert into memories (id, post_id, username, text, content_type, media_key, thumbnail_key, width, height, size_bytes, created_at, metadata_stripped)
      values (${id}, ${newId()}, 'grace', 'Before', 'image/jpeg', 'memories/before.jpg', 'memories/before-thumb.webp', 10, 20, 100, ${new Date().toISOString()}, 1)`.execute(
      db,
    );
    await originalKey.up(untyped);
    const row = await db
      .selectFrom('memories')
      .select(['media_key', 'original_key'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.original_key).toBe('memories/before.jpg');
  });

  it('0009 keeps the keys of attendees, each now its client, and forgets the shared anonymous ones', async () => {
    t = await startTestApp({ database });
    const { db } = t.app.deps;
    const untyped = db as unknown as Kysely<unknown>;
    await idempotencyPerClient.down(untyped);
    const now = new Date().toISOString();
    const attendee = newId();
    await sql`insert into idempotency_keys (scope, key, response, created_at)
      values (${attendee}, 'k', '{"message":"mine"}', ${now}), ('', 'k', '{"message":"anyone"}', ${now})`.execute(
      db,
    );
    await idempotencyPerClient.up(untyped);
    const rows = await db.selectFrom('idempotency_keys').selectAll().execute();
    expect(rows).toEqual([
      {
        client: `attendee:${attendee}`,
        key: 'k',
        response: '{"message":"mine"}',
        fingerprint: null,
        created_at: now,
      },
    ]);
    // One key per client: another client may hold the same key, the same client not twice.
    const entry = { key: 'k', response: '{}', fingerprint: 'f', created_at: now };
    await db
      .insertInto('idempotency_keys')
      .values({ ...entry, client: '127.0.0.1|id:ann' })
      .execute();
    await expect(
      db
        .insertInto('idempotency_keys')
        .values({ ...entry, client: '127.0.0.1|id:ann' })
        .execute(),
    ).rejects.toThrow();
  });

  it('0017 lets a panel question have no speaker, keeping every question, vote and key', async () => {
    t = await startTestApp({ database });
    const { db } = t.app.deps;
    const untyped = db as unknown as Kysely<unknown>;
    const now = new Date().toISOString();
    const speakerId = newId();
    await db
      .insertInto('speakers')
      .values({
        id: speakerId,
        name: 'Ada',
        username: 'ada',
        stack: 's',
        bio: 'b',
        picture_key: 'speakers/p.webp',
        avatar_key: null,
        message: '',
        created_at: now,
      })
      .execute();
    const asked = questionRow(speakerId, now);
    await db.insertInto('questions').values(asked).execute();
    const panel = { ...questionRow(speakerId, now), speaker_id: null, session_id: newId() };
    await db.insertInto('questions').values(panel).execute();
    // Back to a required speaker: the panel's question goes, the speaker's stays.
    await panelQuestions.down(untyped);
    await expect(
      db
        .insertInto('questions')
        .values({ ...panel, id: newId() })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto('question_votes')
      .values({ question_id: asked.id, attendee_id: 'grace', created_at: now })
      .execute();
    await panelQuestions.up(untyped);

    const rows = await db.selectFrom('questions').select(['id', 'speaker_id']).execute();
    expect(rows).toEqual([{ id: asked.id, speaker_id: speakerId }]);
    await db.insertInto('questions').values(panel).execute();
    const votes = await db.selectFrom('question_votes').select('question_id').execute();
    expect(votes).toEqual([{ question_id: asked.id }]);
    // The keys hold as before: a question of an unknown speaker is refused, and a speaker's
    // questions go with the speaker, their votes with them.
    await expect(
      db.insertInto('questions').values(questionRow(newId(), now)).execute(),
    ).rejects.toThrow();
    await db.deleteFrom('speakers').where('id', '=', speakerId).execute();
    expect(await db.selectFrom('question_votes').select('question_id').execute()).toEqual([]);
    expect(await db.selectFrom('questions').select('id').execute()).toEqual([{ id: panel.id }]);
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

describe.runIf(process.env.TEST_DATABASE_URL)('migrating on PostgreSQL', () => {
  it('succeeds while other schemas of the database come and go', async () => {
    const url = process.env.TEST_DATABASE_URL ?? '';
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Other tenants of the database (here: tests) make and drop schemas with tables all along;
    // the migrator's look at every schema's tables must not fail on one that just went.
    const churning = { on: true };
    const churn = (async () => {
      for (let i = 0; churning.on; i += 1) {
        const other = `t_churn_${process.pid}_${i}`;
        await admin.query(
          `create schema ${other}; create table ${other}.a (id serial primary key, b text)`,
        );
        await admin.query(`drop schema ${other} cascade`);
      }
    })();
    const dataDir = path.join(os.tmpdir(), `confab-migrate-${process.pid}`);
    try {
      for (let run = 0; run < 10; run += 1) {
        const schema = `t_migrate_${process.pid}_${Date.now()}_${run}`;
        await admin.query(`create schema ${schema}`);
        const handle = openDatabase(
          loadConfig({
            DATABASE_URL: url,
            DATABASE_SCHEMA: schema,
            SESSION_SECRET: 'test-session-secret-that-is-long-enough-1234',
            DATA_DIR: dataDir,
          }),
        );
        try {
          await expect(migrateToLatest(handle)).resolves.toBeUndefined();
        } finally {
          await handle.close();
          await admin.query(`drop schema ${schema} cascade`);
        }
      }
    } finally {
      churning.on = false;
      await churn;
      await admin.end();
    }
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
