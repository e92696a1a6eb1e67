import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  ACCEPTED_FORMAT_NAMES,
  ACCEPTED_IMAGE_FORMAT_NAMES,
  ADMIN_TEXTS,
  MEMORY_TEXTS,
} from '../../shared/constants.ts';
import type { ErrorCode, ErrorResponse } from '../../shared/errors.ts';
import { QA_TEXTS } from '../../shared/qa-constants.ts';
import { CACHE_CONTROL, cacheHeaders } from './transport/cache-headers.ts';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** File-system errors of a full, read-only, unwritable or failing disk: the server's, and passing. */
const STORAGE_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EACCES', 'EPERM', 'ENOTDIR']);
/** Out of file descriptors: the process is overloaded, not broken. */
const OVERLOAD_FAULTS = new Set(['EMFILE', 'ENFILE']);

/** Socket errors of a database that is down, restarting, unreachable or not answering. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own codes for "not now": the connection failed (class 08), the server is shutting
 * down, crashed or starting (57P01-57P03), a statement timed out (57014), no connection slot is
 * left (53300), or a failover left us on a read-only standby (25006).
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|57014|53300|25006)$/;

/** node-postgres's errors of a connection lost, refused or timed out (they carry no code). */
const POSTGRES_CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed and is not queryable)/;

/** SQLite's primary result codes of a database busy elsewhere, full or failing: 5, 6, 10, 13. */
const SQLITE_UNAVAILABLE = new Set([5, 6, 10, 13]);

/**
 * Whether `error` (or what caused it) says the database cannot answer now, rather than that the
 * request or the code is wrong: the call is worth repeating in a few seconds.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, errcode, message, cause } = error as {
    code?: unknown;
    errcode?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    // Extended codes (SQLITE_BUSY_SNAPSHOT, …) carry the primary one in their low byte.
    return SQLITE_UNAVAILABLE.has(errcode & 0xff);
  }
  if (typeof code === 'string' && (UNREACHABLE.has(code) || POSTGRES_UNAVAILABLE.test(code))) {
    return true;
  }
  if (typeof message === 'string' && POSTGRES_CONNECTION_LOST.test(message)) return true;
  // A connection to a host of several addresses fails with each (an AggregateError).
  if (
    error instanceof AggregateError &&
    error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))
  ) {
    return true;
  }
  return isDatabaseUnavailable(cause, depth + 1);
}

/** What a message is made from, by name: the error body's `params`. */
export type MessageParams = Record<string, string | number>;

/** An error meant for the caller: its message is shown as it is. Made by the factories below. */
export class HttpError extends Error {
  /** Sent as `Retry-After` (seconds), for a 413, a 429 or a 503. */
  retryAfterSeconds: number | undefined;
  /**
   * The message's stable name, `<factory>.<reason>` (`conflict.duplicateQuestion`), and what it
   * is made from: a client writes the refusal in the person's language from them.
   */
  messageId: string | undefined;
  params: MessageParams | undefined;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: ErrorCode = CODE_BY_STATUS[statusCode] ?? 'BAD_REQUEST',
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** Names the message and what it is made from, for a client that writes it itself. */
  named(messageId: string, params: MessageParams = {}): this {
    this.messageId = messageId;
    this.params = params;
    return this;
  }

  /** Tells the caller to try again in `seconds` (`Retry-After`); none when undefined. */
  retryAfter(seconds: number | undefined): this {
    this.retryAfterSeconds = seconds;
    return this;
  }
}

/** A text made from values, each named (in order) for the error body's `params`. */
type Named<A extends unknown[]> = ((...args: A) => string) & { readonly names: readonly string[] };
/** A message: a text, or a text made from named values. */
type Message = string | Named<never[]>;
/** What a message is made from: nothing for a plain text. */
type ArgsOf<M> = M extends (...args: infer A) => string ? A : [];

/** Names the values `text` is made from, in the order it takes them: `named(['seconds'], …)`. */
const named = <A extends (string | number | undefined)[]>(
  names: { readonly [I in keyof A]: string },
  text: (...args: A) => string,
): Named<A> => Object.assign(text, { names });

/** The values of a message by their names (those left undefined left out). */
function paramsOf(message: Message, args: readonly unknown[]): MessageParams {
  if (typeof message === 'string') return {};
  const params: MessageParams = {};
  message.names.forEach((name, index) => {
    const value = args[index];
    if (typeof value === 'string' || typeof value === 'number') params[name] = value;
  });
  return params;
}

/** Every message's stable name (`<factory>.<reason>`), for the clients' tables and their tests. */
export const MESSAGE_IDS: string[] = [];

/**
 * The factory of one status, named `word` (the first half of its messages' names): `reason`
 * names its message in `messages`, and `codes` the reasons whose `code` is not the status's own.
 */
function factory<T extends Record<string, Message>>(
  word: string,
  status: number,
  messages: T,
  codes: Partial<Record<keyof T, ErrorCode>> = {},
) {
  MESSAGE_IDS.push(...Object.keys(messages).map((reason) => `${word}.${reason}`));
  return <K extends keyof T & string>(reason: K, ...args: ArgsOf<T[K]>): HttpError => {
    const message = messages[reason] as Message;
    const text =
      typeof message === 'string'
        ? message
        : (message as unknown as (...a: unknown[]) => string)(...args);
    return new HttpError(status, text, codes[reason]).named(
      `${word}.${reason}`,
      paramsOf(message, args),
    );
  };
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * Every message the API refuses with, by status and reason: each written once, here (or in the
 * shared texts the client shows too). Tests and the product's specification quote them.
 */
const BAD_REQUEST = {
  nullCharacter: 'The address contains a null character',
  tooManyFields: 'Too many form fields.',
  unreadableForm: 'The upload could not be read; send it again.',
  unexpectedFileField: named(
    ['field', 'expected'],
    (field: string, expected: string) =>
      `Unexpected file field "${field}": send files in ${expected}.`,
  ),
  tooManyMemoryFiles: named(['max'], (max: number) => `A memory can carry at most ${max} files.`),
  onePicture: named(['field'], (field: string) => `Send one ${field} only`),
  logoField: 'Send the logo as the file `logo`',
  empty: named(['fileName'], (name: string) => `${name} is empty.`),
  damaged: named(
    ['fileName', 'kind'],
    (name: string, kind: 'image' | 'video') =>
      `${name} could not be read: the ${kind} is damaged or incomplete.`,
  ),
  tooManyPixels: named(
    ['fileName', 'width', 'height', 'cap'],
    (name: string, width: number, height: number, cap: string) => {
      const size =
        width > 0
          ? ` (${width}×${height}, ${Math.round((width * height) / 1_000_000)} megapixels)`
          : '';
      return `${name} is too large${size}: pictures of up to ${cap} are accepted.`;
    },
  ),
  unreadableLogo: 'The logo could not be read as an image; the file may be damaged',
  uploadLength: 'Upload-Length is required',
  schedule: named(['problem'], (problem: string) => `The schedule cannot be imported: ${problem}`),
  scheduleUrl: named(
    ['problem'],
    (problem: string) => `The schedule's address is refused: ${problem}`,
  ),
  scheduleFetch: named(
    ['problem'],
    (problem: string) => `The schedule could not be fetched: ${problem}`,
  ),
  proof: named(['refusal'], (refusal: 'expired' | 'invalid') =>
    refusal === 'expired'
      ? 'The puzzle to join has expired; your device will solve a new one'
      : 'The puzzle to join was not solved; your device will solve a new one',
  ),
} as const;

/** 400 with the code `VALIDATION`: a field or a form that breaks its rules. */
const INVALID = {
  /** A schema's own message (the shared schemas write them), or the subject's when it has none. */
  schema: named(
    ['message', 'subject'],
    (message: string | undefined, subject: 'form' | 'upload' | 'memory' | 'request') =>
      message ?? `Invalid ${subject}`,
  ),
  fieldTooLong: named(['field'], (label: string) => `${label} is too long`),
  pictureRequired: 'Picture is required',
  noFiles: 'Add at least one image or video.',
  endsBeforeStarts: 'endsAt must be later than startsAt',
  unknownRoom: 'roomId names no room of the programme',
  unknownSpeakers: named(
    ['ids'],
    (ids: string) => `speakerIds names no speaker with the id ${ids}`,
  ),
  /** A poll's setup or an answer that does not fit the poll (the rules write the message). */
  poll: named(['message'], (message: string) => message),
  purgeConfirm: 'Type the event’s name exactly as it is set to confirm the purge',
  unknownSession: 'sessionId names no session of the programme',
  unknownReaction: 'emoji must be one of the event’s reactions',
  notSessionSpeaker: 'speakerId names no speaker of this session',
  anonymousOff: 'Anonymous questions are not allowed at this event',
  pushEndpoint: 'endpoint must be the https address of a browser’s push service',
} as const;

const UNAUTHORIZED = {
  invalidToken: 'Invalid token',
  expired: 'Your session has expired; sign in again',
  joinFirst: 'Join first: an attendee token is required',
  erased: 'The data of this attendee was deleted; join again to take part',
  signInToUpload: 'Sign in to upload',
  moderatorFirst: 'Sign in as the speaker (or the admin) first',
  staleSpeakerLink: 'This sign-in link is no longer valid; ask the admin',
  adminMissing: 'Admin login required',
  adminInvalid: 'Invalid admin token',
  adminExpired: 'Your admin session has expired; log in again',
  speakerSecret: 'This sign-in secret is not valid for this speaker',
  adminCredentials: ADMIN_TEXTS.invalidCredentials,
} as const;

const FORBIDDEN = {
  crossOrigin: 'Cross-origin requests are not allowed',
  uploadAsYourself: 'You can only upload as yourself',
  askAsYourself: 'You can only ask as yourself',
  notYourMemory: 'Only the attendee who posted this memory can delete it',
  notYourPost: 'That post is somebody else’s',
  finishedUpload: 'A finished upload cannot be abandoned',
  otherSpeakersQuestion: 'This question was asked to another speaker',
  otherSpeakersExport: "Only that speaker's own questions can be exported",
  notYourPoll: 'Only the session’s speakers and the admin run its polls',
  notYourQuestions: 'Only you can list your anonymous questions',
} as const;

const NOT_FOUND = {
  memory: 'Memory not found',
  question: 'Question not found',
  poll: 'Poll not found',
  pollAnswer: 'Answer not found',
  leaderboard: 'Only a quiz has a leaderboard',
  speaker: QA_TEXTS.speakerNotFound,
  upload: 'Upload not found',
  media: 'Media not found',
  room: 'Room not found',
  session: 'Session not found',
  route: named(
    ['method', 'pathname'],
    (method: string, pathname: string) => `Not found: ${method} ${pathname}`,
  ),
} as const;

const CONFLICT = {
  nameTaken: named(['name'], QA_TEXTS.nameTaken),
  nameBeingTaken: 'Someone with the same name is signing up at this very moment; try again.',
  duplicateQuestion: QA_TEXTS.duplicateQuestion,
  postBeingSent: 'This post is being sent already; try again',
  uploadFinished: 'This upload is finished',
  proofUsed: 'This puzzle was used to join already; your device will solve a new one',
  sessionCancelled: 'This session is cancelled: it takes no more questions',
  roomHasSessions: named(
    ['count'],
    (count: number) =>
      `This room has ${plural(count, 'session')}; move or delete ${count === 1 ? 'it' : 'them'} first`,
  ),
  sessionHasPolls: named(
    ['count'],
    (count: number) =>
      `This session has ${plural(count, 'poll')}; delete ${count === 1 ? 'it' : 'them'} first, or mark the session cancelled`,
  ),
  pollNotOpen: 'This poll is not open for answers',
  pollNotDraft: 'A poll’s title and options change only while it is a draft',
  pollState: named(
    ['from', 'to'],
    (from: string, to: string) => `A poll that is ${from} cannot become ${to}`,
  ),
  pollChanged: 'The poll changed meanwhile; try again',
  leaderboardNotYet: 'The leaderboard is shown once the quiz is closed and its results revealed',
  reactionsOff: 'Reactions are turned off for this event',
} as const;

const TOO_LARGE = {
  memoryFile: named(['fileName', 'megabytes'], MEMORY_TEXTS.tooLarge),
  picture: named(
    ['field', 'megabytes'],
    (field: string, maxMb: number) => `The ${field} is larger than ${maxMb} MB`,
  ),
  schedule: named(['megabytes'], (maxMb: number) => `The schedule is larger than ${maxMb} MB`),
  uploadsFull: named(
    ['megabytes'],
    (megabytes: string) =>
      `The server has no room for another ${megabytes} MB upload right now; try again in a few minutes.`,
  ),
} as const;

const UNSUPPORTED = {
  notMultipart: 'Send the form as multipart/form-data.',
  memoryFile: named(
    ['fileName'],
    (name: string) =>
      `${name} is not a supported image or video. Supported formats: ${ACCEPTED_FORMAT_NAMES.join(', ')}.`,
  ),
  picture: `The picture must be an image. Supported formats: ${ACCEPTED_IMAGE_FORMAT_NAMES.join(', ')}.`,
  noStillImage: named(
    ['fileName'],
    (name: string) =>
      `${name} holds an image sequence without a still picture; post a photo or a video instead.`,
  ),
  logo: named(['formats'], (formats: string) => `The logo must be an image (${formats})`),
} as const;

const TOO_MANY = {
  loginAttempts: named(['seconds'], (seconds: number) => {
    const wait =
      seconds < 60 ? plural(seconds, 'second') : plural(Math.ceil(seconds / 60), 'minute');
    return `Too many failed login attempts. Try again in ${wait}.`;
  }),
  archiveRunning: 'An archive of the memories is being made already; try again when it is done',
  archivesBusy: 'Too many downloads are being made right now; try again in a few seconds',
  unfinishedUploads: named(
    ['count'],
    (held: number) =>
      `You have ${plural(held, 'unfinished upload')}; finish or cancel one before starting another.`,
  ),
} as const;

/** The rate limits' own messages, by the rule that refuses (`LimitRule.reason`). */
const RATE_LIMITED = {
  wait: named(
    ['seconds'],
    (seconds: number) =>
      `Too many requests; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
  ),
  tooManyQuestions: named(['seconds'], QA_TEXTS.tooManyQuestions),
} as const;
/** Why a rate limit refuses, by its name in the table. */
export type RateLimited = keyof typeof RATE_LIMITED;

const UNAVAILABLE = {
  database: 'Database unavailable',
  mediaStore: 'Media store unavailable',
  databaseUnreachable: 'The database cannot be reached right now; try again in a few seconds',
  storage: 'Files cannot be stored right now; try again in a moment',
  busy: 'The server is too busy right now; try again in a few seconds',
  connections: 'The server has too many connections right now; try again in a few seconds',
  temporarily: 'Service temporarily unavailable',
  images: 'Too many pictures are being processed right now; try again in a moment',
  erasureUnfinished:
    'Everything of yours is gone from the app, but some files could not be deleted yet; try again in a moment to finish',
  purgeUnfinished:
    'Part of the event’s data could not be removed yet; what went is gone; try again in a moment to finish',
} as const;

/** Seconds a client waits before trying again, by why the server cannot answer now. */
const UNAVAILABLE_RETRY_AFTER: Partial<Record<keyof typeof UNAVAILABLE, number>> = {
  databaseUnreachable: 5,
  storage: 30,
  erasureUnfinished: 30,
  purgeUnfinished: 30,
  busy: 5,
  connections: 5,
};

/** A request the server cannot read: the URL, its framing, its headers or its pace. */
const MALFORMED = {
  url: [400, 'Malformed URL'],
  request: [400, 'Malformed HTTP request'],
  urlTooLong: [414, 'URL too long'],
  timeout: [408, 'The request took too long to arrive'],
  headersTooLarge: [431, 'The request headers are too large'],
} as const;

export const badRequest = factory('badRequest', 400, BAD_REQUEST, {
  proof: 'PROOF_INVALID',
  schedule: 'SCHEDULE_INVALID',
  scheduleUrl: 'SCHEDULE_URL_REFUSED',
  scheduleFetch: 'SCHEDULE_URL_REFUSED',
});
export const invalid = factory('invalid', 400, INVALID, {
  schema: 'VALIDATION',
  fieldTooLong: 'VALIDATION',
  pictureRequired: 'VALIDATION',
  noFiles: 'VALIDATION',
  endsBeforeStarts: 'VALIDATION',
  unknownRoom: 'VALIDATION',
  unknownSpeakers: 'VALIDATION',
  poll: 'VALIDATION',
  purgeConfirm: 'VALIDATION',
  unknownSession: 'VALIDATION',
  unknownReaction: 'VALIDATION',
  notSessionSpeaker: 'VALIDATION',
  anonymousOff: 'VALIDATION',
  pushEndpoint: 'VALIDATION',
});
export const unauthorized = factory('unauthorized', 401, UNAUTHORIZED);
export const forbidden = factory('forbidden', 403, FORBIDDEN);
/** Why a caller is refused with a 401, by its name in the table. */
export type Unauthorized = keyof typeof UNAUTHORIZED;
/** Why a caller is refused with a 403, by its name in the table (the policies name theirs). */
export type Forbidden = keyof typeof FORBIDDEN;
export const notFound = factory('notFound', 404, NOT_FOUND);
export const conflict = factory('conflict', 409, CONFLICT, { proofUsed: 'PROOF_INVALID' });
export const tooLarge = factory('tooLarge', 413, TOO_LARGE, { uploadsFull: 'UPLOADS_FULL' });
export const unsupported = factory('unsupported', 415, UNSUPPORTED);
export const rangeNotSatisfiable = factory('rangeNotSatisfiable', 416, {
  range: 'Requested range not satisfiable',
});
export const idempotencyKeyReused = factory(
  'idempotencyKeyReused',
  422,
  {
    reused:
      'This Idempotency-Key was sent with another post already; send a new post with a new key.',
  },
  { reused: 'IDEMPOTENCY_KEY_REUSED' },
);
/**
 * A text with a word the organiser blocks (decision 236): the message names no word, so that
 * the list cannot be read back by trying words, and says what to do.
 */
export const blockedWords = factory(
  'blockedWords',
  422,
  {
    text: 'This contains a word the organisers do not allow here; rephrase it and send it again.',
    name: 'This name contains a word the organisers do not allow; choose another name.',
  },
  { text: 'BLOCKED_WORDS', name: 'BLOCKED_WORDS' },
);
export const proofRequired = factory(
  'proofRequired',
  428,
  {
    proof:
      'Joining from this network is busy right now: your device must solve a short puzzle first',
  },
  { proof: 'PROOF_REQUIRED' },
);
export const tooManyRequests = factory('tooManyRequests', 429, TOO_MANY, {
  unfinishedUploads: 'TOO_MANY_UPLOADS',
});

const rateLimitedError = factory('rateLimited', 429, RATE_LIMITED, {
  wait: 'RATE_LIMITED',
  tooManyQuestions: 'RATE_LIMITED',
});

/** A 429 of a rate limit, with the message its rule names, to try again in `seconds`. */
export const rateLimited = (reason: RateLimited, retryAfterSeconds: number): HttpError =>
  rateLimitedError(reason, retryAfterSeconds).retryAfter(retryAfterSeconds);

/**
 * A 503: the server cannot answer now, with the `Retry-After` its reason calls for. The parts
 * whose failures are told apart (the media store, the image queue) extend it.
 */
export class UnavailableError extends HttpError {
  constructor(reason: keyof typeof UNAVAILABLE) {
    super(503, UNAVAILABLE[reason]);
    this.retryAfter(UNAVAILABLE_RETRY_AFTER[reason]);
    this.named(`unavailable.${reason}`);
  }
}

MESSAGE_IDS.push(...Object.keys(UNAVAILABLE).map((reason) => `unavailable.${reason}`));

export const unavailable = (reason: keyof typeof UNAVAILABLE): HttpError =>
  new UnavailableError(reason);

/** A request the server cannot read, answered before any route (code `BAD_REQUEST`). */
export const malformed = (reason: keyof typeof MALFORMED): HttpError =>
  new HttpError(MALFORMED[reason][0], MALFORMED[reason][1], 'BAD_REQUEST');

/** The refusal of a library the app answers through (Fastify's own 4xx, tus), as it stands. */
export const passedOn = (status: number, message: string): HttpError =>
  new HttpError(status, message);

const INTERNAL = new HttpError(500, 'Internal server error', 'INTERNAL');

/**
 * The one body of every error answer: `{ error, code }`, and the message's name and values
 * (`messageId`, `params`) when it has them, so a client can write it in the person's language.
 */
const bodyOf = (error: HttpError): ErrorResponse => ({
  error: error.message,
  code: error.code,
  ...(error.messageId === undefined
    ? {}
    : {
        messageId: error.messageId,
        ...(error.params && Object.keys(error.params).length > 0 ? { params: error.params } : {}),
      }),
});

/**
 * Answers `error` as `{ error, code }` with its status (and its `Retry-After`), never cached:
 * every error answer of a request goes out here, from the error handler or from a hook that
 * answers before the route.
 */
export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  // Headers a media answer may have set before failing must not describe the error body.
  reply.removeHeader('content-disposition');
  reply.removeHeader('content-length');
  if (error.statusCode !== 416) reply.removeHeader('content-range');
  if (error.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(error.retryAfterSeconds));
  }
  return cacheHeaders
    .noStore(reply.code(error.statusCode).type('application/json; charset=utf-8'))
    .send(bodyOf(error));
}

/**
 * The whole HTTP/1.1 answer to `error` on a raw socket, for what is refused before Fastify has a
 * request (a connection over the cap, bytes Node's parser refuses): the same body as
 * `sendError`'s, with `headers` first, and the connection closed after it.
 */
export function rawErrorAnswer(
  error: HttpError,
  headers: Readonly<Record<string, string>>,
): string {
  const body = JSON.stringify(bodyOf(error));
  const all: Record<string, string> = {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': CACHE_CONTROL.noStore,
  };
  if (error.retryAfterSeconds !== undefined) all['retry-after'] = String(error.retryAfterSeconds);
  all.connection = 'close';
  const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? ''}\r\n${lines.join('')}\r\n${body}`;
}

/** A browser loading a page (not a call of the API): it is answered with a page, not JSON. */
function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?', 1)[0] ?? '';
  if (pathname.startsWith('/api/') || pathname === '/api') return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/** A limited page load: a small page that says when to retry, and reloads itself then. */
function sendLimitedPage(reply: FastifyReply, seconds: number): FastifyReply {
  const wait = `${seconds} second${seconds === 1 ? '' : 's'}`;
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="refresh" content="${seconds}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Too many requests</title></head><body>' +
    '<h1>Too many requests</h1>' +
    `<p>This connection asked for too many pages in a minute. Try again in ${wait}; ` +
    'this page reloads by itself then.</p></body></html>';
  return cacheHeaders
    .noStore(reply.code(429).type('text/html; charset=utf-8'))
    .header('retry-after', String(seconds))
    .send(html);
}

/** One error handler, one error shape: `{ error, code }`; 5xx never leak internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.warn({ err: error.cause ?? error }, error.message);
      if (error.statusCode === 429 && wantsPage(request)) {
        return sendLimitedPage(reply, error.retryAfterSeconds ?? 60);
      }
      return sendError(reply, error);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const where = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
      const message = first?.message;
      return sendError(
        reply,
        invalid(
          'schema',
          where && message !== undefined && !message.toLowerCase().includes(where.toLowerCase())
            ? `${where}: ${message}`
            : message,
          'request',
        ),
      );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(reply, passedOn(status, error.message));
    if (isDatabaseUnavailable(error)) {
      // Every call fails alike while it lasts: one line each, not a stack each.
      request.log.warn({ err: error }, 'the database cannot answer');
      return sendError(reply, unavailable('databaseUnreachable'));
    }
    request.log.error({ err: error }, 'request failed');
    if (STORAGE_FAULTS.has(String((error as { code?: unknown }).code))) {
      return sendError(reply, unavailable('storage'));
    }
    if (OVERLOAD_FAULTS.has(String((error as { code?: unknown }).code))) {
      return sendError(reply, unavailable('busy'));
    }
    if (status === 503) return sendError(reply, unavailable('temporarily'));
    return sendError(reply, INTERNAL);
  });
}
