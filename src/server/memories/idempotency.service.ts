import { type Hash, createHash } from 'node:crypto';
import { postedMessage } from '../../shared/constants.ts';
import type { MemoryPostFields, MemoryPostResponse } from '../../shared/schemas/memory.ts';
import type { Attendee } from '../auth/callers.ts';
import type { AppDeps } from '../deps.ts';
import { conflict, idempotencyKeyReused } from '../http/errors.ts';
import {
  type IdempotentEntry,
  findIdempotentEntry,
  saveIdempotentEntry,
} from './idempotency.repository.ts';
import { AlreadyPostedError, type PostedMemories, postMemory } from './memory.service.ts';
import type { StoreFile, UploadContext } from './memory-upload.ts';

/**
 * Reads a memory post's form: each file goes to `storeFile` as it arrives, and its bytes through
 * `onFileBytes` too when it is given; answers the post's text fields.
 */
export type ReadPostForm = (
  storeFile: StoreFile,
  onFileBytes?: (file: number, chunk: Buffer) => void,
) => Promise<MemoryPostFields>;

/** A post's `Idempotency-Key` and the client it belongs to (decision 193). */
export interface IdempotencyKey {
  client: string;
  key: string;
}

/** The answer to a post, and whether it is the first answer of the same post sent again. */
export interface PostAnswer {
  response: MemoryPostResponse;
  replayed: boolean;
}

/**
 * A post's fingerprint, made while it streams in: the SHA-256 of its text fields (caption and
 * username, as read) and of each file's bytes, in the order sent. `onFileBytes` sees the files'
 * bytes; `digest` answers it once the form is read.
 */
function postFingerprint() {
  const files: (Hash | undefined)[] = [];
  let digest: string | undefined;
  return {
    onFileBytes: (file: number, chunk: Buffer): void => {
      (files[file] ??= createHash('sha256')).update(chunk);
    },
    digest: (fields: MemoryPostFields): string => {
      digest ??= createHash('sha256')
        .update(
          JSON.stringify([
            fields.caption,
            fields.username,
            // A file without a byte has no hash of its own: the empty string's.
            Array.from(files, (file) => (file ?? createHash('sha256')).digest('hex')),
          ]),
        )
        .digest('hex');
      return digest;
    },
  };
}

/**
 * The answer to a post: its memories, the files refused on their own, and a message that says
 * whether they await approval and which files were not shared (decision 144).
 */
const answerOf = ({ memories, refused }: PostedMemories): MemoryPostResponse => {
  const pending = memories.some((memory) => memory.status === 'pending');
  return { message: postedMessage(memories.length, refused, pending), memories, refused };
};

/**
 * Posts a memory (`postMemory`) at most once per `Idempotency-Key`: a repeat of the same post
 * with the same key from the same client, while the key is kept, answers the first result and
 * creates nothing; another post with a key its client used already is a 422
 * `IDEMPOTENCY_KEY_REUSED`. Without a key every post is a new one.
 */
export async function postMemoryOnce(
  deps: Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings' | 'renditions'>,
  upload: UploadContext,
  read: ReadPostForm,
  options: { owner: Attendee | null; idempotency?: IdempotencyKey | undefined },
): Promise<PostAnswer> {
  const { owner, idempotency } = options;
  if (!idempotency) {
    return { response: answerOf(await postMemory(deps, upload, read, { owner })), replayed: false };
  }
  const { client, key } = idempotency;
  const fingerprint = postFingerprint();
  let fields: MemoryPostFields | undefined;
  const readKeyed = async (storeFile: StoreFile) =>
    (fields = await read(storeFile, fingerprint.onFileBytes));
  /** The first post's answer to its repeat; another post with its key is refused. */
  const replay = (first: IdempotentEntry): PostAnswer => {
    if (first.fingerprint !== null && fields && first.fingerprint !== fingerprint.digest(fields)) {
      throw idempotencyKeyReused('reused');
    }
    return { response: first.response as MemoryPostResponse, replayed: true };
  };
  const first = await findIdempotentEntry(deps.db, client, key);
  if (first) {
    // A repeat (an answer lost to the network) gets the first answer, once its bytes show it is
    // the same post: they are read, not stored, and nothing is made again.
    await readKeyed((file) => file.skip());
    return replay(first);
  }
  try {
    const posted = await postMemory(deps, upload, readKeyed, {
      owner,
      alongside: async (trx, inserted) => {
        const response = answerOf(inserted);
        const createdAt = deps.clock.now().toISOString();
        const entry = {
          client,
          key,
          // The form is read whole before its memories are written.
          fingerprint: fields ? fingerprint.digest(fields) : '',
          response,
          createdAt,
        };
        if (!(await saveIdempotentEntry(trx, entry))) throw new AlreadyPostedError();
      },
    });
    return { response: answerOf(posted), replayed: false };
  } catch (error) {
    // The same post sent twice at once: the one that committed first is the answer.
    if (!(error instanceof AlreadyPostedError)) throw error;
    const winner = await findIdempotentEntry(deps.db, client, key);
    if (!winner) throw conflict('postBeingSent');
    return replay(winner);
  }
}
