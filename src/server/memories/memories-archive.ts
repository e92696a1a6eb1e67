import { PassThrough, Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import yazl from 'yazl';
import { cleanName } from '../../shared/names.ts';
import type { AppDeps } from '../deps.ts';
import {
  type ArchiveEntry,
  type ArchivePage,
  type ArchiveScope,
  archiveSize,
  listArchiveEntries,
} from './memory.repository.ts';

/** Memories read from the database at a time: the next page is read while one streams. */
const PAGE_SIZE = 100;
const CAPTION_IN_NAME = 60;
const USERNAME_IN_NAME = 40;

/**
 * Text fit for a file's name: without what prints nothing or reorders the text (bidi controls,
 * zero-width characters: the names' own cleaning, decision 194), without control characters and
 * characters no file system takes, and without leading dots. A caption is not cleaned when it is
 * posted, and a name stored before the cleaning may still carry them.
 */
const cleanForName = (text: string, max: number): string => {
  const clean = cleanName(text)
    .normalize('NFC')
    .replace(/[\p{Cc}/\\:*?"<>|]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  // Cut between characters as people see them, never inside one (an emoji, an accent).
  const chars = Array.from(new Intl.Segmenter().segment(clean), ({ segment }) => segment);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : clean;
};

/**
 * A file's name in the archive: when it was posted (UTC), who posted it and the caption, e.g.
 * `2026-11-22 09.41.07 ada - Opening keynote!.jpg`, with ` (2)`… for the other files of a post
 * (`taken` holds the names given so far). The extension is the stored file's.
 */
export function archiveEntryName(entry: ArchiveEntry, taken: Map<string, number>): string {
  const when = entry.createdAt.slice(0, 19).replace('T', ' ').replaceAll(':', '.');
  const username = cleanForName(entry.username, USERNAME_IN_NAME) || 'someone';
  const caption = cleanForName(entry.text, CAPTION_IN_NAME);
  const extension = /\.([a-z0-9]{2,5})$/.exec(entry.key)?.[1] ?? 'bin';
  const base = caption ? `${when} ${username} - ${caption}` : `${when} ${username}`;
  const seen = (taken.get(base.toLowerCase()) ?? 0) + 1;
  taken.set(base.toLowerCase(), seen);
  return seen === 1 ? `${base}.${extension}` : `${base} (${seen}).${extension}`;
}

/**
 * Every published memory's file in one ZIP (or, with `scope`, one attendee's own: decision 215),
 * made as it is sent: the files are stored (they are
 * compressed already), each read from the media store only when its turn comes, and the rows are
 * read a page at a time while the files stream, so neither a temporary file nor the archive is
 * ever held (decision 138). Backpressure from the client paces the reading.
 *
 * A file that cannot be read when its turn comes (the memory was deleted meanwhile) is an empty
 * entry, logged; a database failure after the answer started cuts the answer off, which the
 * client sees as a failed download.
 *
 * Answers it with how many files it holds and their bytes, counted first, for the download's
 * progress.
 */
export async function memoriesArchive(
  deps: Pick<AppDeps, 'db' | 'media'>,
  log: FastifyBaseLogger,
  scope: ArchiveScope = { published: true },
): Promise<{ archive: Readable; size: { files: number; bytes: number } }> {
  const size = await archiveSize(deps.db, scope);
  const zip = new yazl.ZipFile();
  const output = new PassThrough();
  zip.outputStream.pipe(output);
  zip.on('error', (error: Error) => output.destroy(error));
  const taken = new Map<string, number>();
  let cancelled = false;
  output.on('close', () => {
    cancelled = true;
  });

  const addPage = ({ entries, last: after }: ArchivePage) => {
    const full = entries.length >= PAGE_SIZE;
    entries.forEach((entry, index) => {
      const last = full && index === entries.length - 1;
      zip.addReadStreamLazy(
        archiveEntryName(entry, taken),
        { mtime: new Date(entry.createdAt), compress: false },
        (callback) => {
          // The next rows are read while this, the last file of the page, streams.
          if (last && after) void next(after);
          if (cancelled) {
            callback(null, Readable.from([]));
            return;
          }
          deps.media.read(entry.key).then(
            (stream) => callback(null, stream),
            (error: unknown) => {
              log.warn({ err: error, key: entry.key }, 'a memory left the archive empty');
              callback(null, Readable.from([]));
            },
          );
        },
      );
    });
    if (!full) zip.end();
  };
  const next = async (after: string) => {
    if (cancelled) {
      zip.end();
      return;
    }
    try {
      addPage(await listArchiveEntries(deps.db, { after, limit: PAGE_SIZE }, scope));
    } catch (error) {
      log.error({ err: error }, 'the archive of memories was cut off');
      output.destroy(error instanceof Error ? error : new Error('archive failed'));
    }
  };
  // The first page is read before the answer starts: a database that is down is a 503 then.
  addPage(await listArchiveEntries(deps.db, { after: undefined, limit: PAGE_SIZE }, scope));
  return { archive: output, size };
}

/** An archive being streamed, with what `memoriesArchive` counted of it. */
export type OpenArchive = Awaited<ReturnType<typeof memoriesArchive>>;

/**
 * At most `max` archives streamed at once by this instance: each holds a file open and a
 * connection busy. `open` refuses past that with `busy()`, else makes the archive and holds its
 * place until the archive or the answer closes, whichever comes first (once).
 */
export function archiveSlots(max: number) {
  let running = 0;
  return async function open(
    reply: FastifyReply,
    busy: () => Error,
    make: () => Promise<OpenArchive>,
  ): Promise<OpenArchive> {
    if (running >= max) throw busy();
    running += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      running -= 1;
    };
    try {
      const opened = await make();
      opened.archive.once('close', release);
      reply.raw.once('close', release);
      return opened;
    } catch (error) {
      release();
      throw error;
    }
  };
}

/** Sends an archive as a download named `fileName`, with its counts for the download's progress. */
export function sendArchive(reply: FastifyReply, { archive, size }: OpenArchive, fileName: string) {
  return reply
    .type('application/zip')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('x-archive-files', String(size.files))
    .header('x-archive-bytes', String(size.bytes))
    .send(archive);
}
