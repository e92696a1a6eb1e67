import http from 'node:http';
import fc from 'fast-check';

/** One raw HTTP request, sent as is (no URL normalisation, so `..` and `%2e` reach the server). */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export interface FuzzAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Sends a request on a fresh connection; a connection the server cut after answering is fine. */
export function send(baseUrl: string, request: FuzzRequest): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers: {
          ...request.headers,
          connection: 'close',
          // Node leaves it out on GET and HEAD; without it the body would read as a next request.
          ...(request.body ? { 'content-length': String(request.body.length) } : {}),
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        const done = () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          });
        response.on('end', done);
        response.on('error', done);
        response.on('aborted', done);
      },
    );
    outgoing.setTimeout(30_000, () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // A body far over the server's limit is not read: the server answers and closes, and the
      // connection is reset under the body still being sent. A refusal, not a failure.
      const refusedBody =
        (request.body?.length ?? 0) > 64 * 1024 &&
        (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      if (refusedBody) resolve({ status: 0, headers: {}, body: Buffer.alloc(0) });
      else reject(error);
    });
    if (request.body) outgoing.end(request.body);
    else outgoing.end();
  });
}

/** Texts that break naive code: markup, control characters, unicode edge cases, huge strings. */
const nastyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\r\n',
    '\u202e\u200b\ufeff',
    '\ud800',
    '\udfff\ud800',
    '𝕳𝖊𝖑𝖑𝖔 👩‍👩‍👧‍👦',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    '&lt;b&gt;',
    '../../../etc/passwd',
    '..\\..\\windows\\win.ini',
    "' or 1=1 --",
    '"; drop table memories; --',
    '%00',
    '%s%s%s%n',
    '${7*7}',
    '__proto__',
    'constructor',
    'NaN',
    '-1',
    '1e309',
    '9'.repeat(400),
  ),
  fc.nat({ max: 300_000 }).map((length) => 'x'.repeat(length)),
);

/** encodeURIComponent that accepts lone surrogates (as U+FFFD), which the fuzzer makes on purpose. */
const encode = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, '\ufffd'));

const percentEncodeAll = (text: string) =>
  [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/** A path segment: an id, a traversal, a percent-encoded anything. Always a valid request path. */
export const segment = (ids: string[]) =>
  fc.oneof(
    fc.constantFrom(...ids),
    fc.uuid(),
    fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2E%2E%2F%2E%2E',
      '..%2f..%2fconfab.sqlite',
      '..%5c..%5c',
      '%252e%252e%252f',
      '%00',
      'a%00.png',
      '%zz',
      '%',
      '%c0%ae%c0%ae',
      'con',
      '.tmp',
      'memories',
    ),
    nastyText.map((text) => encode(text.slice(0, 300))),
    nastyText.map((text) => percentEncodeAll(text.slice(0, 100))),
  );

const queryValue = fc.oneof(
  nastyText.map((text) => encode(text.slice(0, 2000))),
  fc.integer().map(String),
  fc.double().map((value) => encodeURIComponent(String(value))),
  fc.uuid(),
  fc.constantFrom('%zz', '%', '', '200', '201', '0', '-5', '1.5', 'true'),
);

const queryKey = fc.constantFrom(
  'limit',
  'before',
  'since',
  'speakerId',
  'askerUsername',
  'search',
  'id',
  'download',
  'status',
  '__proto__',
  'limit[]',
  'a[b]',
);

const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 6 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

/** Every route of the app, with hostile parameters in their places. */
export const fuzzPath = (ids: {
  memory: string[];
  speaker: string[];
  speakerUsername: string[];
  media: string[];
}) => {
  const seg = segment([...ids.memory, ...ids.speaker]);
  const username = fc.oneof(fc.constantFrom(...ids.speakerUsername), seg);
  return fc
    .oneof(
      fc.constantFrom(
        '/api/health',
        '/api/config',
        '/api/memory',
        '/api/memories',
        '/api/memories/mine',
        '/speakers',
        '/api/speakerscard',
        '/api/speakersadd',
        '/questions',
        '/api/questions/realtime',
        '/api/speakers/login',
        '/api/admin/login',
        '/api/admin',
        '/api/media',
        '/api/admin/audit',
        '/api/admin/reports',
        '/api/attendees',
        '/api/admin/questions',
        '/api/admin/questions.csv',
        '/api/admin/settings',
        '/api/admin/stats',
        '/api/admin/stats.csv',
        '/api/admin/settings/logo',
        '/api/admin/memories.zip',
        '/wall',
        '/api/openapi.json',
        '/api/docs',
        '/api/docs/scalar.js',
        '/api/uploads',
        '/manifest.webmanifest',
        '/share-target',
        '/sw.js',
        '/',
        '/home',
        '/memory',
        '/borderlessadmin',
        '/assets/x.js',
        '/socket.io/?EIO=4&transport=polling',
        '/api',
        '//api/health',
        '/api/health/',
      ),
      seg.map((s) => `/api/memory/${s}`),
      seg.map((s) => `/api/memories/${s}`),
      seg.map((s) => `/api/memories/${s}/report`),
      seg.map((s) => `/api/uploads/${s}`),
      seg.map((s) => `/api/media/${s}`),
      seg.map((s) => `/m/${s}`),
      username.map((u) => `/api/speakers/${u}/dashboard`),
      username.map((u) => `/speakers/${u}/present`),
      seg.map((s) => `/api/questions/${s}`),
      seg.map((s) => `/api/questions/${s}/vote`),
      seg.map((s) => `/api/speakers/${s}`),
      seg.map((s) => `/api/speakers/${s}/secret`),
      seg.map((s) => `/api/speakers/${s}/questions.csv`),
      fc.constantFrom(...ids.media).map((key) => `/media/${key}`),
      fc.array(seg, { minLength: 1, maxLength: 4 }).map((parts) => `/media/${parts.join('/')}`),
      fc
        .tuple(seg, fc.constantFrom('png', 'jpg', 'webp', 'mp4', 'html', 'svg', 'sqlite', 'part'))
        .map(([s, ext]) => `/media/memories/${s}.${ext}`),
      seg.map((s) => `/${s}`),
    )
    .chain((path) => query.map((q) => `${path}${path.includes('?') ? q.replace('?', '&') : q}`));
};

/** JSON values of the right and wrong shapes for the JSON routes. */
const jsonValue = (ids: string[]) =>
  fc.oneof(
    fc.jsonValue(),
    fc.record(
      {
        speakerId: fc.oneof(fc.constantFrom(...ids), fc.jsonValue(), nastyText),
        speakerName: fc.oneof(fc.jsonValue(), nastyText),
        question: fc.oneof(fc.jsonValue(), nastyText),
        askerUsername: fc.oneof(fc.jsonValue(), nastyText),
        username: fc.oneof(fc.jsonValue(), nastyText),
        password: fc.oneof(fc.jsonValue(), nastyText),
        secret: fc.oneof(fc.jsonValue(), nastyText),
        answered: fc.oneof(fc.boolean(), fc.jsonValue()),
        pinned: fc.oneof(fc.boolean(), fc.jsonValue()),
        status: fc.oneof(fc.constantFrom('published', 'pending', 'hidden'), nastyText),
      },
      { requiredKeys: [] },
    ),
  );

const MEMORY_FIELDS = ['caption', 'username', 'files'];
const SPEAKER_FIELDS = ['name', 'stack', 'bio', 'picture'];
/** The logo's form has one file; a second name makes the nearly right forms vary. */
const LOGO_FIELDS = ['name', 'logo'];

interface Part {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

/** Nearly right: the fields a route wants (one hostile text) and real, cut or empty images. */
const nearlyRightParts = (images: Buffer[], fields: string[]): fc.Arbitrary<Part[]> =>
  fc
    .tuple(
      nastyText,
      fc.nat({ max: fields.length - 2 }),
      fc.array(
        fc.oneof(
          { arbitrary: fc.constantFrom(...images), weight: 4 },
          { arbitrary: fc.constant(Buffer.alloc(0)), weight: 1 },
          {
            arbitrary: fc
              .tuple(fc.constantFrom(...images), fc.nat())
              .map(([image, cut]) => image.subarray(0, cut % image.length)),
            weight: 1,
          },
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([text, hostile, files]) => [
      ...fields.slice(0, -1).map((name, index) => ({
        name,
        filename: null,
        contentType: null,
        data: Buffer.from(index === hostile ? text.slice(0, 3000) : `fuzz ${name}`),
      })),
      ...files.map((data) => ({
        name: fields.at(-1) ?? 'files',
        filename: 'photo.png',
        contentType: 'image/png',
        data,
      })),
    ]);

const encodeMultipart = (boundary: string, parts: Part[], truncate: boolean) => {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === null
        ? `form-data; name="${part.name.replaceAll('"', '%22')}"`
        : `form-data; name="${part.name.replaceAll('"', '%22')}"; filename="${part.filename.replaceAll('"', '%22')}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${
          part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''
        }\r\n`,
      ),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  if (!truncate) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(chunks);
  return truncate ? body.subarray(0, Math.floor(body.length * 0.7)) : body;
};

/** A multipart body built by hand: fields repeated, files empty or random, thousands of parts. */
const multipartBody = (images: Buffer[]) =>
  fc
    .record({
      boundary: fc.constantFrom('fuzzboundary', 'x', '----WebKitFormBoundary7MA4YWxkTrZu0gW'),
      parts: fc.oneof(
        fc.array(
          fc.record({
            name: fc.oneof(
              fc.constantFrom(
                'caption',
                'username',
                'files',
                'media',
                'name',
                'stack',
                'bio',
                'picture',
                'logo',
              ),
              nastyText.map((text) => text.slice(0, 50)),
            ),
            filename: fc.option(
              fc.oneof(
                fc.constantFrom('photo.png', '../../evil.html', 'a\u0000.png', '', 'x.svg'),
                nastyText.map((t) => t.slice(0, 100)),
              ),
            ),
            contentType: fc.option(
              fc.constantFrom('image/png', 'text/html', 'video/mp4', 'application/octet-stream'),
            ),
            data: fc.oneof(
              fc.constant(Buffer.alloc(0)),
              fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
              fc.constantFrom(...images),
              fc
                .tuple(fc.constantFrom(...images), fc.nat())
                .map(([image, cut]) => image.subarray(0, cut % image.length)),
              nastyText.map((text) => Buffer.from(text)),
            ),
          }),
          { maxLength: 12 },
        ),
        nearlyRightParts(images, MEMORY_FIELDS),
        nearlyRightParts(images, SPEAKER_FIELDS),
        // Thousands of small parts.
        fc.nat({ max: 3000 }).map((count) =>
          Array.from({ length: count }, (_, index) => ({
            name: index % 2 ? 'caption' : 'files',
            filename: index % 2 ? null : 'e.png',
            contentType: null,
            data: Buffer.alloc(0),
          })),
        ),
      ),
      truncate: fc.boolean(),
    })
    .map(({ boundary, parts, truncate }) => ({
      boundary,
      body: encodeMultipart(boundary, parts, truncate),
    }));

/** Bodies and content types, matching or not. */
export const fuzzBody = (ids: string[], images: Buffer[]) =>
  fc.oneof(
    fc.constant({ contentType: undefined, body: undefined }),
    jsonValue(ids).map((value) => ({
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify(value)),
    })),
    nastyText.map((text) => ({ contentType: 'application/json', body: Buffer.from(text) })),
    multipartBody(images).map(({ boundary, body }) => ({
      contentType: `multipart/form-data; boundary=${boundary}`,
      body,
    })),
    multipartBody(images).map(({ body }) => ({ contentType: 'multipart/form-data', body })),
    fc
      .tuple(
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'image/png',
          'application/json; charset=utf-16',
          'garbage',
          'multipart/mixed; boundary=x',
        ),
        fc.uint8Array({ maxLength: 4000 }),
      )
      .map(([contentType, bytes]) => ({ contentType, body: Buffer.from(bytes) })),
  );

/** Headers worth varying; a valid admin token sometimes, so admin routes are reached too. */
export const fuzzHeaders = (adminToken: string) =>
  fc.record(
    {
      authorization: fc.oneof(
        fc.constant(`Bearer ${adminToken}`),
        fc.constantFrom('Bearer ', 'Basic YWRtaW46YWRtaW4=', 'Bearer x.y.z', 'bearer'),
        nastyText.map((t) => `Bearer ${encode(t.slice(0, 500))}`),
      ),
      range: fc.oneof(
        fc.constantFrom(
          'bytes=0-0',
          'bytes=-1',
          'bytes=5-',
          'bytes=0-1,2-3',
          'bytes=9-1',
          'items=0-1',
        ),
        fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `bytes=${a}-${b}`),
      ),
      'if-none-match': fc.oneof(
        fc.constantFrom('*', 'W/"x"', '"'),
        fc.string({ maxLength: 40 }).map(encode),
      ),
      'x-confab-user': nastyText.map((t) => encode(t.slice(0, 100))),
      // tus (resumable uploads) and idempotent posts.
      'tus-resumable': fc.constantFrom('1.0.0', '0.2.2', ''),
      'upload-length': fc.oneof(
        fc.constantFrom('0', '-1', '1e9', '99999999999999999999', 'x'),
        fc.nat().map(String),
      ),
      'upload-offset': fc.oneof(fc.constantFrom('-1', 'abc', ''), fc.nat().map(String)),
      'upload-metadata': fc.oneof(
        fc.constantFrom('filename', 'filename ***', 'caption YQ==,caption YQ==', ''),
        nastyText.map((t) => `filename ${Buffer.from(t.slice(0, 200)).toString('base64')}`),
      ),
      'idempotency-key': fc.oneof(
        fc.constantFrom('k', ''),
        nastyText.map((t) => encode(t.slice(0, 120))),
      ),
      accept: fc.constantFrom('text/html', 'application/json', '*/*'),
      // With TRUST_PROXY, many senders: the per-address limits stay out of the way.
      'x-forwarded-for': fc.oneof(
        fc.ipV4(),
        fc.ipV6(),
        fc.constantFrom('unknown', '', '1.2.3.4, 5.6.7.8', '::ffff:127.0.0.1'),
      ),
    },
    { requiredKeys: ['x-forwarded-for'] },
  );

export const fuzzMethod = fc.constantFrom(
  'GET',
  'GET',
  'POST',
  'POST',
  'POST',
  'HEAD',
  'DELETE',
  'PUT',
  'PATCH',
  'OPTIONS',
);

/**
 * Requests aimed at the write routes with nearly right bodies, so the fuzzer also gets past
 * parsing and validation into storage (a purely random request almost never does).
 */
export const targetedRequest = (
  ids: { memory: string[]; speaker: string[] },
  images: Buffer[],
  adminToken: string,
): fc.Arbitrary<FuzzRequest> =>
  fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          ['/api/memories', MEMORY_FIELDS] as const,
          ['/api/speakersadd', SPEAKER_FIELDS] as const,
        ),
        fc.boolean(),
        fc.ipV4(),
      )
      .chain(([[path, fields], truncate, address]) =>
        nearlyRightParts(images, [...fields]).map((parts) => ({
          method: 'POST',
          path,
          headers: {
            'content-type': 'multipart/form-data; boundary=targeted',
            'x-forwarded-for': address,
          },
          body: encodeMultipart('targeted', parts, truncate && parts.length > 3),
        })),
      ),
    fc
      .tuple(
        fc.record({
          speakerId: fc.oneof(fc.constantFrom(...ids.speaker), fc.uuid()),
          speakerName: fc.oneof(nastyText, fc.jsonValue()),
          question: fc.oneof(nastyText, fc.jsonValue()),
          askerUsername: fc.oneof(nastyText, fc.constant('fuzzer')),
        }),
        fc.ipV4(),
      )
      .map(([value, address]) => ({
        method: 'POST',
        path: '/questions',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: Buffer.from(JSON.stringify(value)),
      })),
    fc.tuple(fc.constantFrom(...ids.memory), fc.uuid(), fc.boolean()).map(([id, other, real]) => ({
      method: 'DELETE',
      path: `/api/media/${real ? id : other}`,
      headers: { authorization: `Bearer ${adminToken}` },
      body: undefined,
    })),
    // Approving a memory, with nearly right bodies.
    fc
      .tuple(
        fc.oneof(fc.constantFrom(...ids.memory), fc.uuid()),
        fc.oneof(
          fc.record({ status: fc.constantFrom('published', 'pending', 'hidden') }),
          fc.record(
            { status: fc.oneof(nastyText, fc.jsonValue()), text: fc.jsonValue() },
            { requiredKeys: [] },
          ),
        ),
        fc.oneof(
          fc.constant(`Bearer ${adminToken}`),
          fc.constant('Bearer a.b.c'),
          fc.constant(undefined),
        ),
      )
      .map(([id, value, authorization]) => ({
        method: 'PATCH',
        path: `/api/media/${id}`,
        headers: {
          'content-type': 'application/json',
          ...(authorization ? { authorization } : {}),
        },
        body: Buffer.from(JSON.stringify(value)),
      })),
    // The live room's writes with the admin's token: a question's flags, the settings.
    fc
      .tuple(
        fc.uuid(),
        fc.record(
          {
            answered: fc.oneof(fc.boolean(), fc.jsonValue()),
            pinned: fc.oneof(fc.boolean(), fc.jsonValue()),
            status: fc.oneof(fc.constantFrom('published', 'pending', 'hidden'), nastyText),
            votes: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
      )
      .map(([id, value]) => ({
        method: 'PATCH',
        path: `/api/questions/${id}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: Buffer.from(JSON.stringify(value)),
      })),
    fc
      .record(
        {
          moderateQuestions: fc.oneof(fc.boolean(), fc.jsonValue()),
          moderateMemories: fc.oneof(fc.boolean(), fc.jsonValue()),
          eventName: fc.oneof(nastyText, fc.jsonValue()),
          primaryColor: fc.oneof(fc.constantFrom('#1971c2', '#FFF', 'red'), nastyText),
          wallIntervalSeconds: fc.oneof(fc.integer(), fc.jsonValue()),
          questionsPerMinute: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.jsonValue()),
          reportsToHide: fc.oneof(fc.integer(), fc.jsonValue()),
        },
        { requiredKeys: [] },
      )
      .map((value) => ({
        method: 'PUT',
        path: '/api/admin/settings',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: Buffer.from(JSON.stringify(value)),
      })),
    // The event's logo, with the admin's token: nearly right forms, cut off or not.
    fc
      .tuple(fc.boolean(), fc.boolean(), fc.constantFrom('PUT', 'PUT', 'DELETE'))
      .chain(([truncate, withText, method]) =>
        nearlyRightParts(images, LOGO_FIELDS).map((all) => {
          const parts = withText ? all : all.filter((part) => part.filename !== null);
          return {
            method,
            path: '/api/admin/settings/logo',
            headers: {
              'content-type': 'multipart/form-data; boundary=targeted',
              authorization: `Bearer ${adminToken}`,
            },
            body: encodeMultipart('targeted', parts, truncate && parts.length > 3),
          };
        }),
      ),
    fc
      .tuple(
        fc.constantFrom('PUT', 'DELETE'),
        fc.uuid(),
        fc.oneof(
          fc.constant(`Bearer ${adminToken}`),
          nastyText.map((t) => `Bearer ${encode(t).slice(0, 300)}`),
          fc.constant('Bearer a.b.c'),
        ),
      )
      .map(([method, id, authorization]) => ({
        method,
        path: `/api/questions/${id}/vote`,
        headers: { authorization },
        body: undefined,
      })),
    // An attendee deleting a memory: real ids with the admin's (wrong kind of) token or hostile
    // ones, unknown ids; none may delete, none may fail with a 5xx.
    fc
      .tuple(
        fc.oneof(fc.constantFrom(...ids.memory), fc.uuid()),
        fc.oneof(
          fc.constant(`Bearer ${adminToken}`),
          nastyText.map((t) => `Bearer ${encode(t).slice(0, 300)}`),
          fc.constant('Bearer a.b.c'),
          fc.constant(''),
        ),
      )
      .map(([id, authorization]): FuzzRequest => ({
        method: 'DELETE',
        path: `/api/memories/${id}`,
        headers: authorization ? { authorization } : {},
        body: undefined,
      })),
    // Reports of memories: real and unknown ids, hostile reasons and categories, wrong tokens.
    fc
      .tuple(
        fc.oneof(fc.constantFrom(...ids.memory), fc.uuid(), segment(ids.memory)),
        fc.oneof(
          fc.record(
            {
              reason: fc.oneof(nastyText, fc.jsonValue()),
              category: fc.oneof(
                fc.constantFrom('notConsented', 'inappropriate', 'other'),
                nastyText,
              ),
            },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        ),
        fc.oneof(
          fc.constant(`Bearer ${adminToken}`),
          fc.constant('Bearer a.b.c'),
          fc.constant(undefined),
        ),
        fc.ipV4(),
      )
      .map(([id, value, authorization, address]): FuzzRequest => ({
        method: 'POST',
        path: `/api/memories/${id}/report`,
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': address,
          ...(authorization ? { authorization } : {}),
        },
        body: Buffer.from(JSON.stringify(value)),
      })),
  );
