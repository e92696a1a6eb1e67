import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { v7 as uuidv7 } from 'uuid';

export interface SeedCounts {
  memories: number;
  speakers: number;
  questions: number;
}

/** Seeded memories' picture: one file for both renditions, or a display picture and a thumbnail. */
export type SeedMedia =
  Buffer | { display: Buffer; thumbnail: Buffer; width: number; height: number };

export interface Seeded {
  speakerIds: string[];
  speakerUsernames: string[];
}

/** The columns each seeded table is given (the others keep their defaults). */
const COLUMNS = {
  speakers: [
    'id',
    'name',
    'username',
    'stack',
    'bio',
    'picture_key',
    'avatar_key',
    'message',
    'created_at',
  ],
  questions: ['id', 'speaker_id', 'speaker_name', 'asker_username', 'question', 'created_at'],
  memories: [
    'id',
    'post_id',
    'username',
    'text',
    'content_type',
    'media_key',
    'thumbnail_key',
    'width',
    'height',
    'size_bytes',
    'created_at',
  ],
} as const;
type Table = keyof typeof COLUMNS;
type Value = string | number | null;

/**
 * The seeded rows, table by table (speakers first: questions name them), each memory and
 * speaker with a small real image file under `dataDir/media`, written as the rows are made.
 */
function* seedRows(
  dataDir: string,
  counts: SeedCounts,
  media: SeedMedia,
  seeded: Seeded,
): Generator<{ table: Table; values: Value[] }> {
  const photo = Buffer.isBuffer(media)
    ? { display: media, thumbnail: undefined, width: 640, height: 480 }
    : media;
  const imageBytes = photo.display;
  const mediaDir = path.join(dataDir, 'media', 'memories');
  fs.mkdirSync(mediaDir, { recursive: true });
  const start = Date.now() - 86_400_000;
  for (let i = 0; i < counts.speakers; i++) {
    const id = uuidv7();
    seeded.speakerIds.push(id);
    seeded.speakerUsernames.push(`speaker-${i}`);
    fs.writeFileSync(path.join(mediaDir, `speaker-${i}.jpg`), imageBytes);
    yield {
      table: 'speakers',
      values: [
        id,
        `Speaker ${i}`,
        `speaker-${i}`,
        'TypeScript, Node.js',
        'Talks about building fast web apps for crowded places.',
        `memories/speaker-${i}.jpg`,
        `memories/speaker-${i}.jpg`,
        'Ask me anything!',
        new Date(start + i).toISOString(),
      ],
    };
  }
  for (let i = 0; i < counts.questions; i++) {
    const speaker = i % Math.max(1, seeded.speakerIds.length);
    yield {
      table: 'questions',
      values: [
        uuidv7(),
        seeded.speakerIds[speaker] ?? null,
        `Speaker ${speaker}`,
        `attendee-${i % 997}`,
        `Question number ${i}: how would you scale this to ten thousand people?`,
        new Date(start + i).toISOString(),
      ],
    };
  }
  for (let i = 0; i < counts.memories; i++) {
    const key = `memories/seed-${i}.jpg`;
    fs.writeFileSync(path.join(dataDir, 'media', key), imageBytes);
    let thumbnailKey = key;
    if (photo.thumbnail) {
      thumbnailKey = `memories/seed-${i}-thumb.webp`;
      fs.writeFileSync(path.join(dataDir, 'media', thumbnailKey), photo.thumbnail);
    }
    yield {
      table: 'memories',
      values: [
        uuidv7(),
        uuidv7(),
        `attendee-${i % 997}`,
        `Memory ${i} from the main stage, what a keynote!`,
        'image/jpeg',
        key,
        thumbnailKey,
        photo.width,
        photo.height,
        imageBytes.length,
        new Date(start + i).toISOString(),
      ],
    };
  }
}

/**
 * Writes rows straight into a migrated SQLite database (start the server once first so it
 * migrates, stop it, seed, start it again). Memory rows point at small real image files.
 */
export function seedSqlite(dataDir: string, counts: SeedCounts, media: SeedMedia): Seeded {
  const db = new DatabaseSync(path.join(dataDir, 'confab.sqlite'));
  db.exec('pragma journal_mode = WAL');
  const inserts = Object.fromEntries(
    Object.entries(COLUMNS).map(([table, columns]) => [
      table,
      db.prepare(
        `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      ),
    ]),
  ) as Record<Table, ReturnType<DatabaseSync['prepare']>>;
  const seeded: Seeded = { speakerIds: [], speakerUsernames: [] };
  db.exec('begin');
  for (const { table, values } of seedRows(dataDir, counts, media, seeded)) {
    inserts[table].run(...values);
  }
  db.exec('commit');
  db.close();
  return seeded;
}

/**
 * The same rows into a migrated PostgreSQL schema (the client's search path), 500 a statement;
 * the image files go under `dataDir/media`, which every instance is then given.
 */
export async function seedPostgres(
  client: pg.ClientBase,
  dataDir: string,
  counts: SeedCounts,
  media: SeedMedia,
): Promise<Seeded> {
  const seeded: Seeded = { speakerIds: [], speakerUsernames: [] };
  let batch: { table: Table; rows: Value[][] } | undefined;
  const flush = async () => {
    if (!batch || batch.rows.length === 0) return;
    const columns = COLUMNS[batch.table];
    const tuples = batch.rows.map(
      (_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
    );
    await client.query(
      `insert into ${batch.table} (${columns.join(', ')}) values ${tuples.join(', ')}`,
      batch.rows.flat(),
    );
    batch = undefined;
  };
  await client.query('begin');
  for (const { table, values } of seedRows(dataDir, counts, media, seeded)) {
    if (batch?.table !== table || batch.rows.length === 500) await flush();
    batch ??= { table, rows: [] };
    batch.rows.push(values);
  }
  await flush();
  await client.query('commit');
  return seeded;
}
