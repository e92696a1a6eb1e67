import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/connect.ts';
import type { Db } from './db/database.ts';
import type { Clock } from './lib/clock.ts';
import type { MediaStore } from './media/media-store.ts';
import type { QuestionVersions } from './questions/question-versions.ts';
import type { ListVersion } from './realtime/list-version.ts';
import type { Realtime } from './realtime/realtime.ts';

/** What every domain's routes and services receive from `buildApp`. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  media: MediaStore;
  realtime: Realtime;
  clock: Clock;
  /** Bumped on every memory write and delete: the gallery's ETag. */
  memoryListVersion: ListVersion;
  /** Bumped on every speaker sign-up: the speakers list's ETag. */
  speakerListVersion: ListVersion;
  /** Forgotten for the scopes a new question changes: the question lists' ETags. */
  questionVersions: QuestionVersions;
}
