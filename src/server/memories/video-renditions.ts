import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, VideoRenditions } from '../deps.ts';
import { newId } from '../lib/ids.ts';
import { stripVideoMetadata } from '../media/video-metadata.ts';
import {
  claimRendition,
  finishRendition,
  findRenditionSource,
  listPendingRenditions,
  releaseRenditions,
  renewRenditionLeases,
} from './rendition-jobs.repository.ts';

/** How long a claim on a rendition holds without being renewed; renewed every third of it. */
const LEASE_MS = 60_000;
const BATCH = 100;

type Deps = Pick<AppDeps, 'db' | 'media' | 'events' | 'clock' | 'videos'>;

/**
 * Makes the playable rendition of every stored video (decision 154), in the background: the
 * original (metadata stripped) is fetched from the store, ffmpeg writes an H.264/AAC MP4 (or
 * copies a clip already in that form), its metadata is stripped again, it is stored under a new
 * key, and the row points `media` at it while `original` keeps the file as stored. Every open
 * screen hears of it (`memoryUpdated`).
 *
 * Jobs live in the database, not in this process: a row stays `processing` until its rendition is
 * stored. An instance takes a row with a lease it renews while it works; a row whose lease ran out
 * (its instance stopped) is taken by the next scan of any instance, at start or every minute, so
 * a video is rendered once even when several instances share the database.
 */
export function startVideoRenditions(
  deps: Deps,
  options: {
    stagingDir: string;
    log: FastifyBaseLogger;
    /** How often rows no instance holds are looked for, in ms. */
    scanIntervalMs?: number;
  },
): VideoRenditions {
  const owner = newId();
  /** Queued or running here. */
  const mine = new Set<string>();
  const running = new Set<string>();
  const stopping = new AbortController();
  let idleWaiters: (() => void)[] = [];
  const iso = (ms: number) => new Date(deps.clock.now().getTime() + ms).toISOString();

  const settle = () => {
    if (mine.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const renew = setInterval(() => {
    void renewRenditionLeases(deps.db, { owner, ids: [...running], until: iso(LEASE_MS) }).catch(
      (error: unknown) => options.log.warn({ err: error }, 'video leases could not be renewed'),
    );
  }, LEASE_MS / 3);
  renew.unref();

  /** Makes one rendition, once this instance holds the row: in the queue's turn of its owner. */
  async function render(id: string): Promise<void> {
    const claimed = await claimRendition(deps.db, {
      id,
      owner,
      now: deps.clock.now().toISOString(),
      until: iso(LEASE_MS),
    });
    if (!claimed) return;
    const source = await findRenditionSource(deps.db, id);
    if (!source) return;
    const input = path.join(
      options.stagingDir,
      `${newId()}-source${path.extname(source.sourceKey)}`,
    );
    const output = path.join(options.stagingDir, `${newId()}-rendition.mp4`);
    /** Stored and not yet named by the row: deleted unless the row takes them. */
    const stored: string[] = [];
    const { signal } = stopping;
    try {
      await pipeline(
        await deps.media.read(source.sourceKey),
        fs.createWriteStream(input, { flags: 'wx' }),
      );
      // A video stored before posters were gets one now.
      let poster: { posterKey: string; thumbnailKey: string } | undefined;
      if (!source.hasPoster) {
        try {
          const read = await deps.videos.readNow(input, signal);
          const base = `memories/${newId()}`;
          poster = { posterKey: `${base}-poster.jpg`, thumbnailKey: `${base}-thumb.webp` };
          stored.push(poster.posterKey, poster.thumbnailKey);
          await deps.media.put(poster.posterKey, read.poster.data, read.poster.contentType);
          await deps.media.put(
            poster.thumbnailKey,
            read.thumbnail.data,
            read.thumbnail.contentType,
          );
        } catch (error) {
          if (signal.aborted) throw error;
          poster = undefined;
          options.log.warn({ err: error, memory: id }, 'no poster could be made for a video');
        }
      }
      let rendered: Awaited<ReturnType<Deps['videos']['render']>> | undefined;
      try {
        rendered = await deps.videos.render(input, output, { signal });
      } catch (error) {
        if (signal.aborted) throw error;
        // It read at upload, but cannot be rendered: it stays as stored, and stops processing.
        options.log.warn(
          { err: error, memory: id },
          'a video could not be rendered; kept as stored',
        );
      }
      let rendition;
      if (rendered) {
        // ffmpeg writes none of the phone's metadata; what it writes of its own goes too.
        await stripVideoMetadata(output);
        const mediaKey = `memories/${newId()}.mp4`;
        stored.push(mediaKey);
        const { size } = await deps.media.put(mediaKey, fs.createReadStream(output), 'video/mp4');
        rendition = {
          mediaKey,
          contentType: 'video/mp4',
          sizeBytes: size,
          width: rendered.width,
          height: rendered.height,
        };
        options.log.debug(
          { memory: id, video: rendered.plan.video, audio: rendered.plan.audio },
          'video rendition stored',
        );
      }
      const memory = await finishRendition(deps.db, { id, owner, rendition, poster });
      if (!memory) return;
      stored.length = 0;
      await deps.events.publish({ type: 'memoryUpdated', memory });
    } finally {
      // Stored for a row that went (deleted, or taken over): not needed.
      await Promise.all(stored.map((key) => deps.media.delete(key).catch(() => undefined)));
      await Promise.all([fsp.rm(input, { force: true }), fsp.rm(output, { force: true })]);
    }
  }

  function enqueue(id: string, username: string): void {
    if (mine.has(id) || stopping.signal.aborted) return;
    mine.add(id);
    // The queue orders renditions by owner; the row is taken when its turn comes, so another
    // instance with a free worker may take it first.
    void (async () => {
      try {
        await deps.videos.queue.run('rendition', username, async () => {
          if (stopping.signal.aborted) return;
          running.add(id);
          await render(id);
        });
      } catch (error) {
        if (!stopping.signal.aborted) {
          options.log.warn(
            { err: error, memory: id },
            'a video rendition failed; tried again later',
          );
        }
      } finally {
        running.delete(id);
        mine.delete(id);
        settle();
      }
    })();
  }

  async function scan(): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const pending = await listPendingRenditions(deps.db, {
        now: deps.clock.now().toISOString(),
        after,
        limit: BATCH,
      });
      for (const video of pending) {
        after = video.id;
        enqueue(video.id, video.username);
      }
      if (pending.length < BATCH) return;
    }
  }

  const scanner = setInterval(() => {
    scan().catch((error: unknown) =>
      options.log.warn({ err: error }, 'videos still processing could not be looked up'),
    );
  }, options.scanIntervalMs ?? LEASE_MS);
  scanner.unref();

  return {
    enqueue,
    scan,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settle();
      }),
    async stop() {
      clearInterval(renew);
      clearInterval(scanner);
      const held = [...running];
      stopping.abort();
      await new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settle();
      });
      await releaseRenditions(deps.db, { owner, ids: held }).catch(() => undefined);
    },
  };
}
