import type { Readable } from 'node:stream';
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, HttpError, invalid, unsupported } from '../errors.ts';

/** Bytes read before a file's type is decided from them (file-type needs at most 4100). */
export const HEAD_BYTES = 4100;

const MULTIPART = 'multipart/form-data';

/**
 * Outside the routes that read a form, a multipart body is accepted and left unread, as the
 * multipart plugin does for a route that does not read it: the route's schema decides (a JSON
 * route answers 400). The plugin itself is registered only where a form is read (`formRoutes`):
 * its request hooks would otherwise run on every request, the 304 poll included (decision 184).
 */
export function registerMultipart(app: FastifyInstance): void {
  app.addContentTypeParser(MULTIPART, (_request, _payload, done) => {
    done(null);
  });
}

/**
 * Routes that read a multipart form, in a scope of their own where the plugin parses it. A file
 * over the size limit ends truncated and `openFile` refuses it as itself (413 naming it), so a
 * form that takes files one by one can drop that file and go on to the next (decision 144).
 */
export function formRoutes(routes: FastifyPluginAsyncZod): FastifyPluginAsyncZod {
  return async (forms) => {
    forms.removeContentTypeParser(MULTIPART);
    await forms.register(multipart, { throwFileSizeLimit: false });
    await routes(forms, {});
  };
}

/** One uploaded file, as its bytes arrive: its first bytes, then the whole stream. */
export interface UploadedFile {
  field: string;
  /** The file's name, fit to quote in a message. */
  name: string;
  /** The first HEAD_BYTES bytes (fewer for a smaller file). */
  head: Buffer;
  /** Every byte, the head first; fails with the form's 413 when the size limit is passed. */
  body: AsyncIterable<Buffer>;
  /**
   * Reads and drops what is left of the file, so the form goes on to its next part after this
   * file was refused on its own (the bytes past a size limit are dropped by the parser).
   */
  skip(): Promise<void>;
  /**
   * Where the whole file already lies on this machine's disk (a finished resumable upload): it
   * is then copied by the kernel instead of streamed through the process.
   */
  localPath?: string;
}

export interface MultipartForm {
  /** Size limit of one file, in bytes. */
  fileBytes: number;
  /** Fields that may carry files; any other is refused. */
  fileFields: readonly string[];
  /** The most files the form takes. */
  maxFiles: number;
  /** The most text fields the form takes. */
  maxFields: number;
  /** Bytes one text field may carry. */
  fieldBytes: number;
  /** A field's name as the person knows it, for "… is too long". */
  labels?: Readonly<Record<string, string>>;
  /** The form's own refusals: a file over the size limit (413), more files than it takes. */
  refusals: {
    tooLarge(name: string): HttpError;
    tooManyFiles(): HttpError;
  };
  /**
   * Sees every byte of each file as the form reads it, whatever reads it (the file's store, a
   * skip), with the file's place in the form (0 for the first): a fingerprint of the files
   * made while they stream. Bytes past the size limit are dropped unseen.
   */
  onFileBytes?: (file: number, chunk: Buffer) => void;
}

/** A file name fit to quote in a message: no path, no control characters, not too long. */
export function displayName(filename: string | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!clean) return 'file';
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

/** The multipart library's refusals, as answers a person understands. */
function formError(error: unknown, tooLarge: () => HttpError): Error {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest('tooManyFields');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return unsupported('notMultipart');
  }
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (error instanceof Error && typeof status === 'number' && status < 500) return error;
  return badRequest('unreadableForm');
}

/**
 * Reads and drops the rest of a refused body, so the client reads the answer; a body that
 * stops arriving for the server's idle timeout meanwhile is cut off (once the answer is sent,
 * Node gives the connection the keep-alive timeout instead, which is far longer).
 */
function drain(request: FastifyRequest): void {
  const raw = request.raw;
  raw.unpipe();
  const idleMs = request.server.server.timeout;
  if (idleMs > 0) {
    const timer = setTimeout(() => raw.destroy(), idleMs);
    raw.on('data', () => timer.refresh());
    raw.once('close', () => clearTimeout(timer));
    raw.once('end', () => clearTimeout(timer));
  }
  raw.resume();
}

/**
 * Reads a file's first HEAD_BYTES bytes (fewer when it is smaller) from its chunks, for its type
 * to be told; `ended` says whether that was all of it.
 */
export async function readHead(
  iterator: AsyncIterator<Buffer>,
): Promise<{ head: Buffer; ended: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done) return { head: Buffer.concat(chunks), ended: true };
    chunks.push(next.value);
    length += next.value.length;
  }
  return { head: Buffer.concat(chunks), ended: false };
}

/** A file's chunks, each shown to `seen` as it is read. */
function watched(
  chunks: AsyncIterator<Buffer>,
  seen: ((chunk: Buffer) => void) | undefined,
): AsyncIterator<Buffer> {
  if (!seen) return chunks;
  return {
    next: async () => {
      const next = await chunks.next();
      if (!next.done) seen(next.value);
      return next;
    },
  };
}

/**
 * Reads a file part's first bytes and gives back the whole stream, with the size check. `index`
 * is its place in the form.
 */
async function openFile(
  part: MultipartFile,
  form: MultipartForm,
  index: number,
): Promise<UploadedFile> {
  const name = displayName(part.filename);
  const file = part.file;
  const iterator = watched(
    file[Symbol.asyncIterator]() as AsyncIterator<Buffer>,
    form.onFileBytes && ((chunk) => form.onFileBytes?.(index, chunk)),
  );
  const tooLarge = () => form.refusals.tooLarge(name);
  const first = await readHead(iterator);
  const { head } = first;
  let { ended } = first;
  // A file over the limit is refused when its bytes are read, so the caller decides whether
  // that refuses the whole form or this file alone.
  // Read through a call: the parser sets the flag while the bytes are read.
  const truncated = (): boolean => file.truncated;
  async function* body(): AsyncGenerator<Buffer> {
    if (truncated()) throw tooLarge();
    yield head;
    while (!ended) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      if (truncated()) throw tooLarge();
      yield next.value;
    }
    if (truncated()) throw tooLarge();
  }
  const skip = async () => {
    while (!ended) {
      const next = await iterator.next();
      if (next.done) ended = true;
    }
  };
  return { field: part.fieldname, name, head, body: body(), skip };
}

/**
 * Reads a multipart form: its text fields (returned, line breaks as typed) and its files, each
 * handed to `onFile` in order while its bytes arrive. `beforeFile` sees the fields read so far
 * before each file (to refuse bad text before an upload). One mapping of every parser error to
 * a 4xx. On any refusal the rest of the body is read and dropped, so the client reads the answer;
 * what `onFile` stored is the caller's to remove.
 */
export async function readMultipart(
  request: FastifyRequest,
  form: MultipartForm,
  onFile: (file: UploadedFile) => Promise<void>,
  beforeFile?: (fields: Readonly<Record<string, string>>) => void,
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw unsupported('notMultipart');
  const fields: Record<string, string> = {};
  // Errors of the request's own bytes (a cut-off or malformed body) are the sender's. A file
  // stream may have failed before its listener was attached: its `errored` tells.
  const requestErrors = new WeakSet<Error>();
  const fileStreams: Readable[] = [];
  const isRequestError = (error: unknown) =>
    error instanceof Error &&
    (requestErrors.has(error) || fileStreams.some((stream) => stream.errored === error));
  let files = 0;
  let fileName = 'file';
  const mapped = (error: unknown) => formError(error, () => form.refusals.tooLarge(fileName));
  try {
    const parts = request.parts({
      limits: {
        fileSize: form.fileBytes,
        // One more than allowed, so that too many is told apart from a parser limit.
        files: form.maxFiles + 1,
        fieldSize: form.fieldBytes,
        fields: form.maxFields,
        parts: form.maxFiles + form.maxFields + 1,
      },
    });
    const iterator = parts[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw mapped(error);
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        if (part.valueTruncated) {
          const label = form.labels?.[part.fieldname] ?? part.fieldname;
          throw invalid('fieldTooLong', label);
        }
        // Browsers send line breaks in form fields as CRLF; keep them as the person typed them.
        if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value.replace(/\r\n?/g, '\n');
        }
        continue;
      }
      if (!form.fileFields.includes(part.fieldname)) {
        const expected = form.fileFields.map((field) => `"${field}"`).join(' or ');
        throw badRequest('unexpectedFileField', displayName(part.fieldname), expected);
      }
      files += 1;
      if (files > form.maxFiles) throw form.refusals.tooManyFiles();
      beforeFile?.(fields);
      fileName = displayName(part.filename);
      fileStreams.push(part.file);
      part.file.once('error', (error) => requestErrors.add(error));
      await onFile(await openFile(part, form, files - 1));
    }
    return fields;
  } catch (error) {
    if (!request.raw.readableEnded) drain(request);
    throw isRequestError(error) ? mapped(error) : error;
  }
}
