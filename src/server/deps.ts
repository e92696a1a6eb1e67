import type { Callers } from './auth/callers.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/connect.ts';
import type { Db } from './db/database.ts';
import type { Clock } from './lib/clock.ts';
import type { ImagePipeline } from './media/image-pipeline.ts';
import type { MediaStore } from './media/media-store.ts';
import type { VideoPipeline } from './media/video-pipeline.ts';
import type { Events } from './events/events.ts';
import type { ListCache } from './lists/list-cache.ts';
import type { Realtime } from './realtime/realtime.ts';
import type { SettingsStore } from './settings/settings.service.ts';

/**
 * The background maker of stored videos' playable renditions, made by `startVideoRenditions`
 * (`memories/video-renditions.ts`). Declared here: the memories' modules import this file, so
 * this file imports nothing of theirs (no circle, not even of types).
 */
export interface VideoRenditions {
  /** Queues the rendition of a video just stored by this instance. */
  enqueue(id: string, owner: string): void;
  /** Queues every video still processing that no instance holds (at start, then now and then). */
  scan(): Promise<void>;
  /** Resolves once nothing is queued or running here (tests, the benchmark). */
  idle(): Promise<void>;
  /** Stops: running ffmpeg processes are killed, and their videos let go for the next start. */
  stop(): Promise<void>;
}

/** What every domain's routes and services receive from `buildApp`. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  media: MediaStore;
  /** Renders uploaded pictures (memories, speakers): decoded whole, upright, no metadata. */
  images: ImagePipeline;
  /** Reads uploaded videos and takes their posters; makes playable renditions (ffmpeg). */
  videos: VideoPipeline;
  /** Makes every stored video's playable rendition in the background, once across instances. */
  renditions: VideoRenditions;
  /** What changed: services publish one domain event per change, after it committed. */
  events: Events;
  /** This instance's sockets, a subscriber of the events. */
  realtime: Realtime;
  clock: Clock;
  /** Every polled list's version and answers, kept fresh by the events. */
  lists: ListCache;
  /** The admin's settings, in memory. */
  settings: SettingsStore;
  /** Who a request comes from: admin, speaker or attendee tokens. */
  callers: Callers;
  /** Web Push (decision 240): the server's VAPID public key, which browsers subscribe with. */
  push: { vapidPublicKey: string };
}
