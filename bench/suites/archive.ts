import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../../src/server/db/connect.ts';
import { newId } from '../../src/server/lib/ids.ts';
import { insertMemories } from '../../src/server/memories/memory.repository.ts';
import { adminToken } from '../../tests/support/speakers.ts';
import { startAppServer } from '../lib/processes.ts';
import { type Row, fmt, mb } from '../lib/report.ts';

/** Media the archive carries (BENCH_ARCHIVE_MB, default 1024: 1 GB), in files of 8 MB. */
const ARCHIVE_MB = Number(process.env.BENCH_ARCHIVE_MB ?? 1024);
const FILE_MB = 8;
const PASSWORD = 'bench archive admin password';

/**
 * A data directory holding `ARCHIVE_MB` of published videos (random bytes: the archive stores
 * files as they are), written straight to disk with their rows, as uploads leave them.
 */
async function seeded(): Promise<string> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-bench-archive-'));
  const mediaDir = path.join(dataDir, 'media', 'memories');
  await fs.mkdir(mediaDir, { recursive: true });
  const database = openDatabase({
    dataDir,
    databaseUrl: undefined,
    databaseSchema: undefined,
    databasePoolSize: 1,
  });
  try {
    await migrateToLatest(database);
    const chunk = randomBytes(FILE_MB * 2 ** 20);
    const files = Math.ceil(ARCHIVE_MB / FILE_MB);
    for (let i = 0; i < files; i += 1) {
      const id = newId();
      // Each file differs from the others in its first bytes.
      chunk.writeUInt32LE(i, 0);
      await fs.writeFile(path.join(mediaDir, `${id}.mp4`), chunk);
      await insertMemories(database.db, [
        {
          id,
          postId: newId(),
          username: `bench-${i % 50}`,
          text: `Archive bench memory number ${i}`,
          contentType: 'video/mp4',
          mediaKey: `memories/${id}.mp4`,
          thumbnailKey: null,
          width: null,
          height: null,
          sizeBytes: chunk.length,
          createdAt: new Date(Date.now() - (files - i) * 1000).toISOString(),
          metadataStripped: true,
          status: 'published',
        },
      ]);
    }
  } finally {
    await database.close();
  }
  return dataDir;
}

/** Reads an answer's body to its end at full speed, sampling `rss` meanwhile: bytes and peak. */
async function drain(
  response: Response,
  rss: () => Promise<number>,
): Promise<{ bytes: number; peak: number; seconds: number }> {
  const start = performance.now();
  let peak = await rss();
  let bytes = 0;
  const sampling = { on: true };
  const sampler = (async () => {
    while (sampling.on) {
      peak = Math.max(peak, await rss());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  sampling.on = false;
  await sampler;
  return { bytes, peak, seconds: (performance.now() - start) / 1000 };
}

/**
 * "Download all": the server's resident memory while it streams a ZIP of ARCHIVE_MB of media
 * to a client reading at full speed. Reference: the same bytes served as the plain media files,
 * one after the other, from the same server in the same run.
 */
export async function archiveDownload(): Promise<Row[]> {
  const dataDir = await seeded();
  const server = await startAppServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD });
  try {
    const token = await adminToken(server.url, PASSWORD);
    // The plain files first: what serving the same bytes costs without an archive.
    // At most 200 files (8 MB each: up to 1.6 GB), one page.
    const list = (await (
      await fetch(`${server.url}/api/media?limit=200`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { media: string }[];
    const media = list.map((memory) => memory.media);
    const plainStart = performance.now();
    let plainBytes = 0;
    let plainPeak = await server.rss();
    const rssBefore = plainPeak;
    for (const url of media) {
      const answer = await drain(await fetch(`${server.url}${url}`), () => server.rss());
      plainBytes += answer.bytes;
      plainPeak = Math.max(plainPeak, answer.peak);
    }
    const plainSeconds = (performance.now() - plainStart) / 1000;

    const before = await server.rss();
    const zip = await drain(
      await fetch(`${server.url}/api/admin/memories.zip`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      () => server.rss(),
    );
    const growth = zip.peak - before;
    const plainRate = plainBytes / 2 ** 20 / plainSeconds;
    const zipRate = zip.bytes / 2 ** 20 / zip.seconds;
    return [
      {
        name: `Download all: server RSS growth while streaming a ZIP of ${media.length} files, ${mb(zip.bytes)}`,
        value: `${mb(before)} → peak ${mb(zip.peak)} (growth ${mb(growth)})`,
        reference: `the same files one by one: ${mb(rssBefore)} → peak ${mb(plainPeak)}`,
        ratio: fmt(zip.peak / plainPeak, 2),
        target: `< 64 MB growth${ARCHIVE_MB < 1024 ? ` (target set for 1 GB; ran ${ARCHIVE_MB} MB)` : ''}`,
        met: growth < 64 * 2 ** 20,
      },
      {
        name: 'Download all: throughput of the ZIP',
        value: `${fmt(zipRate)} MB/s (${fmt(zip.seconds, 1)} s)`,
        reference: `${fmt(plainRate)} MB/s as plain files`,
        ratio: fmt(zipRate / plainRate, 2),
        target: 'the same order as plain files (≥ 0.5×)',
        met: zipRate / plainRate >= 0.5,
      },
    ];
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
