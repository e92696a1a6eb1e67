import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { type DataStore, EVENTS, Server } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import { UPLOADS_PATH } from '../../shared/schemas/upload.ts';
import type { Caller } from '../auth/callers.ts';
import { authorize, can } from '../auth/policies.ts';
import type { AppDeps } from '../deps.ts';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  passedOn,
  unauthorized,
  unsupported,
} from '../http/errors.ts';
import { CACHE_CONTROL } from '../http/transport/cache-headers.ts';
import { newId } from '../lib/ids.ts';
import type { UploadContext } from '../memories/memory-upload.ts';
import {
  deleteResumableUpload,
  findResumableUpload,
  postOfAnother,
  touchResumableUpload,
} from './upload.repository.ts';
import {
  createFinisher,
  createUploadRoom,
  parseUploadMetadata,
  removeUploadFiles,
} from './upload.service.ts';
import { screenText } from '../moderation/screen.ts';

/**
 * The reply a tus answer goes out through: its headers are set as they are known, so that they
 * stay on a refusal too (the app's error handler answers it on the same reply).
 */
export interface TusReply {
  header(name: string, value: string): unknown;
  raw: ServerResponse;
}

/** What is left to send once the headers are set: the status and the body, if any. */
export interface TusAnswer {
  status: number;
  body: string | undefined;
}

/** The methods that act on one upload. */
export type UploadMethod = 'HEAD' | 'PATCH' | 'DELETE';

/** Whether an error is one of tus's own answers (a status and a text), not a failure. */
const isTusAnswer = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'status_code' in error &&
  typeof error.status_code === 'number';

/**
 * Resumable uploads (tus 1.0), served by `@tus/server` for the app's routes, which hand over
 * the request as Node received it and the reply to answer through. `create` makes an upload (its
 * metadata checked at once, its room reserved), `resume` answers `PATCH` (bytes from
 * `Upload-Offset`), `HEAD` (how far it got) and `DELETE` (abandon it) to the attendee who made
 * it (`continue upload`), and `options` what the server supports. A finished upload becomes one memory through the
 * pipeline of `POST /api/memories` (decisions 166-168).
 */
export function createTusUploads(
  deps: AppDeps,
  store: DataStore,
  log: Pick<FastifyBaseLogger, 'warn'>,
) {
  const { config } = deps;
  const maxBytes = Math.floor(config.maxUploadMb * 1024 * 1024);
  const context: UploadContext = {
    media: deps.media,
    stagingDir: path.join(config.dataDir, 'uploads'),
    images: deps.images,
    videos: deps.videos,
  };
  const finisher = createFinisher(deps, context, store, log);
  const room = createUploadRoom(deps, store, config);
  /** The attendee of each request handed to tus, and the error it failed with. */
  const owners = new WeakMap<Request, Caller>();
  const failures = new WeakMap<Request, unknown>();
  /** The upload a POST reserved room for, and the POSTs whose upload the store made. */
  const reserved = new WeakMap<Request, string>();
  const created = new WeakSet<Request>();
  const now = () => deps.clock.now().toISOString();

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore: store,
    maxSize: maxBytes,
    relativeLocation: true,
    // Cross-origin calls are the app's guard's to allow (its CORS headers are set before).
    allowedOrigins: [],
    disableTerminationForFinishedUploads: true,
    // UUIDv7, like every id of the app: they sort by time.
    namingFunction: () => newId(),
    onUploadCreate: async (request, upload) => {
      const attendee = owners.get(request);
      if (attendee?.kind !== 'attendee') throw unauthorized('signInToUpload');
      const fields = parseUploadMetadata(upload.metadata);
      authorize(attendee, 'post as', fields.username);
      // A caption the blocked words refuse is refused before any byte is sent (decision 236);
      // held or starred, it is when the upload finishes and the memory is made.
      screenText(deps.settings.blockedWords, 'username', fields.username);
      screenText(deps.settings.blockedWords, 'caption', fields.caption);
      if (fields.filetype && !/^(image|video)\//i.test(fields.filetype)) {
        throw unsupported('memoryFile', fields.filename);
      }
      if (upload.size === 0) throw badRequest('empty', fields.filename);
      if (fields.postId && (await postOfAnother(deps.db, fields.postId, fields.username))) {
        throw forbidden('notYourPost');
      }
      // Its row, if there is room for it (else a 429 or 413, and nothing is written).
      await room.reserve({ id: upload.id, attendeeId: attendee.id, sizeBytes: upload.size ?? 0 });
      reserved.set(request, upload.id);
      return {};
    },
    onUploadFinish: async (_request, upload) => {
      const result = await finisher.finish(upload);
      if ('refused' in result) throw result.refused;
      return { headers: { 'Memory-Id': result.memoryId } };
    },
    onResponseError: async (request, error) => {
      // A POST whose upload the store failed to make: its reserved room is given back.
      const id = reserved.get(request);
      if (id !== undefined && !created.has(request)) {
        await deleteResumableUpload(deps.db, id);
        await removeUploadFiles(store, id).catch(() => undefined);
      }
      // tus's own answers (a wrong offset, a missing header) keep their status and text; any
      // other failure goes to the app's error handler below.
      if (isTusAnswer(error)) return undefined;
      failures.set(request, error);
      return { status_code: 500, body: 'failed' };
    },
  });
  tus.on(EVENTS.POST_CREATE, (request) => {
    created.add(request);
  });

  /** Hands the request to tus and sets its answer's headers on the reply. */
  async function forward(request: IncomingMessage, reply: TusReply, attendee: Caller) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const hasBody = request.method === 'PATCH' || request.method === 'POST';
    const webRequest = new Request(new URL(request.url ?? '/', 'http://app.invalid'), {
      method: request.method ?? 'GET',
      headers,
      ...(hasBody
        ? { body: Readable.toWeb(request) as ReadableStream<Uint8Array>, duplex: 'half' }
        : {}),
    });
    owners.set(webRequest, attendee);
    const response = await tus.handleWeb(webRequest);
    if (hasBody && !request.complete) {
      // Answered before its bytes were read (a wrong offset, a refusal): the rest is not
      // wanted, and the connection closes with the answer instead of waiting for it.
      reply.header('connection', 'close');
      reply.raw.once('finish', () => request.destroy());
    }
    const failure = failures.get(webRequest);
    if (failure !== undefined)
      throw failure instanceof Error ? failure : new Error('The upload failed', { cause: failure });
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'connection') reply.header(name, value);
      if (name === 'connection' && value === 'close') reply.header(name, value);
    });
    reply.header('cache-control', CACHE_CONTROL.noStore);
    const text = await response.text();
    if (response.status >= 400) {
      throw passedOn(response.status, text.trim() || 'The upload was refused');
    }
    return { status: response.status, headers: response.headers, text };
  }

  return {
    /** `POST`: starts an upload for `attendee`. */
    async create(request: IncomingMessage, reply: TusReply, attendee: Caller): Promise<TusAnswer> {
      if (request.headers['upload-length'] === undefined) {
        throw badRequest('uploadLength');
      }
      const answer = await forward(request, reply, attendee);
      return { status: answer.status, body: answer.text || undefined };
    },

    /** `HEAD`, `PATCH` or `DELETE` of upload `id`, which must be `attendee`'s. */
    async resume(
      method: UploadMethod,
      id: string,
      request: IncomingMessage,
      reply: TusReply,
      caller: Caller,
    ): Promise<TusAnswer> {
      const row = await findResumableUpload(deps.db, id);
      // Somebody else's upload is as unknown as a missing one.
      if (!row || !can(caller, 'continue upload', row)) {
        throw notFound('upload');
      }
      reply.header('tus-resumable', '1.0.0');
      reply.header('cache-control', CACHE_CONTROL.noStore);
      if (row.memoryId) {
        // Finished: its memory is made and its bytes are gone; it answers as complete, so a
        // client that lost the last answer finishes instead of sending it all again.
        const size = String(row.sizeBytes);
        reply.header('upload-offset', size);
        reply.header('upload-length', size);
        reply.header('memory-id', row.memoryId);
        if (method === 'HEAD') return { status: 200, body: undefined };
        if (method === 'PATCH' && request.headers['upload-offset'] === size) {
          return { status: 204, body: undefined };
        }
        if (method === 'DELETE') throw forbidden('finishedUpload');
        throw conflict('uploadFinished');
      }
      if (method === 'PATCH') await touchResumableUpload(deps.db, id, now());
      let answer;
      try {
        answer = await forward(request, reply, caller);
      } finally {
        if (method === 'PATCH') await touchResumableUpload(deps.db, id, now());
      }
      if (method === 'DELETE') await deleteResumableUpload(deps.db, id);
      if (method === 'HEAD') {
        const offset = answer.headers.get('upload-offset');
        if (offset !== null && offset === answer.headers.get('upload-length')) {
          // Every byte arrived but no memory was made (the last PATCH failed on the way):
          // make it now, or answer why it is refused.
          const result = await finisher.finish(await store.getUpload(id));
          if ('refused' in result) throw result.refused;
          reply.header('memory-id', result.memoryId);
        }
      }
      return { status: answer.status, body: answer.text || undefined };
    },

    /** `OPTIONS`: the tus versions, extensions and the largest upload. */
    async options(request: IncomingMessage, reply: TusReply): Promise<void> {
      const response = await tus.handleWeb(
        new Request(new URL(request.url ?? '/', 'http://app.invalid'), { method: 'OPTIONS' }),
      );
      response.headers.forEach((value, name) => {
        if (name.toLowerCase().startsWith('tus-')) reply.header(name, value);
      });
    },
  };
}
