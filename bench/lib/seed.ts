import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
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

/**
 * Writes rows straight into a migrated SQLite database (start the server once first so it
 * migrates, stop it, seed, start it again). Memory rows point at small real image files.
 */
export function seedSqlite(dataDir: string, counts: SeedCounts, media: SeedMedia): Seeded {
  const photo = Buffer.isBuffer(media)
    ? { display: media, thumbnail: undefined, width: 640, height: 480 }
    : media;
  const imageBytes = photo.display;
  const db = new DatabaseSync(path.join(dataDir, 'confab.sqlite'));
  db.exec('pragma journal_mode = WAL');
  const mediaDir = path.join(dataDir, 'media', 'memories');
  fs.mkdirSync(mediaDir, { recursive: true });
  const start = Date.now() - 86_400_000;
  const speakerIds: string[] = [];
  const speakerUsernames: string[] = [];
  const insertSpeaker = db.prepare(
    'insert into speakers (id, name, username, stack, bio, picture_key, avatar_key, message, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertQuestion = db.prepare(
    'insert into questions (id, speaker_id, speaker_name, asker_username, question, created_at) values (?, ?, ?, ?, ?, ?)',
  );
  const insertMemory = db.prepare(
    'insert into memories (id, post_id, username, text, content_type, media_key, thumbnail_key, width, height, size_bytes, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  db.exec('begin');
  for (let i = 0; i < counts.speakers; i++) {
    const id = uuidv7();
    speakerIds.push(id);
    speakerUsernames.push(`speaker-${i}`);
    fs.writeFileSync(path.join(mediaDir, `speaker-${i}.jpg`), imageBytes);
    insertSpeaker.run(
      id,
      `Speaker ${i}`,
      `speaker-${i}`,
      'TypeScript, Node.js',
      'Talks about building fast web apps for crowded places.',
      `memories/speaker-${i}.jpg`,
      `memories/speaker-${i}.jpg`,
      'Ask me anything!',
      new Date(start + i).toISOString(),
    );
  }
  for (let i = 0; i < counts.questions; i++) {
    const speaker = i % Math.max(1, speakerIds.length);
    insertQuestion.run(
      uuidv7(),
      speakerIds[speaker] ?? null,
      `Speaker ${speaker}`,
      `attendee-${i % 997}`,
      `Question number ${i}: how would you scale this to ten thousand people?`,
      new Date(start + i).toISOString(),
    );
  }
  for (let i = 0; i < counts.memories; i++) {
    const key = `memories/seed-${i}.jpg`;
    fs.writeFileSync(path.join(dataDir, 'media', key), imageBytes);
    let thumbnailKey = key;
    if (photo.thumbnail) {
      thumbnailKey = `memories/seed-${i}-thumb.webp`;
      fs.writeFileSync(path.join(dataDir, 'media', thumbnailKey), photo.thumbnail);
    }
    insertMemory.run(
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
    );
  }
  db.exec('commit');
  db.close();
  return { speakerIds, speakerUsernames };
}
