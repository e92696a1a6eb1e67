import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import {
  type ClientToServerEvents,
  type ServerToClientEvents,
  type WatchRequest,
} from '../../src/shared/events.ts';
import { errorResponseSchema } from '../../src/shared/errors.ts';
import { type Question, questionSchema } from '../../src/shared/schemas/question.ts';
import { type Speaker, speakerCreatedResponseSchema } from '../../src/shared/schemas/speaker.ts';

/** A real PNG of the given size: a gradient, so it is not trivially compressible. */
export async function pngImage(width = 320, height = 200): Promise<Buffer> {
  const channels = 3;
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * channels;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = ((x + y) * 97) % 256;
    }
  }
  return sharp(raw, { raw: { width, height, channels } }).png().toBuffer();
}

/** A JPEG carrying EXIF (a camera, a copyright and GPS position), as a phone would send it. */
export async function jpegWithExif(): Promise<Buffer> {
  return sharp(await pngImage(400, 300))
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Copyright: 'Secret Owner' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' },
    })
    .toBuffer();
}

export interface SpeakerFormInput {
  name?: string | undefined;
  stack?: string | undefined;
  bio?: string | undefined;
  picture?: { data: Buffer; filename?: string; type?: string } | undefined;
}

export function speakerForm(input: SpeakerFormInput): FormData {
  const form = new FormData();
  if (input.name !== undefined) form.append('name', input.name);
  if (input.stack !== undefined) form.append('stack', input.stack);
  if (input.bio !== undefined) form.append('bio', input.bio);
  if (input.picture) {
    form.append(
      'picture',
      new Blob([new Uint8Array(input.picture.data)], { type: input.picture.type ?? 'image/png' }),
      input.picture.filename ?? 'me.png',
    );
  }
  return form;
}

/** Posts the sign-up form: one built by hand, or from its fields. */
export async function postSpeakerForm(
  baseUrl: string,
  form: FormData | SpeakerFormInput,
): Promise<Response> {
  const body = form instanceof FormData ? form : speakerForm(form);
  return fetch(`${baseUrl}/api/speakersadd`, { method: 'POST', body });
}

/** Signs a speaker up through the API: the stored speaker and the secret shown once. */
async function signUp(
  baseUrl: string,
  input: SpeakerFormInput,
): Promise<{ speaker: Speaker; secret: string }> {
  const response = await postSpeakerForm(baseUrl, input);
  if (response.status !== 201) {
    throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  }
  const { speaker, secret } = speakerCreatedResponseSchema.parse(await response.json());
  return { speaker, secret };
}

/** Signs a speaker up through the API and answers the stored speaker. */
export async function addSpeaker(
  baseUrl: string,
  name = 'Ada Lovelace',
  extra: Partial<SpeakerFormInput> = {},
): Promise<Speaker> {
  const { speaker } = await signUp(baseUrl, {
    name,
    stack: 'Analytical engines',
    bio: 'Wrote the first program.',
    picture: { data: await pngImage() },
    ...extra,
  });
  return speaker;
}

export async function askQuestion(
  baseUrl: string,
  body: Record<string, unknown>,
): Promise<Question> {
  const response = await fetch(`${baseUrl}/questions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) {
    throw new Error(`asking failed: ${response.status} ${await response.text()}`);
  }
  return questionSchema.parse(await response.json());
}

/** The stored speaker pictures, whichever media store the app uses. */
export async function speakerFiles(t: { storedMediaKeys(prefix?: string): Promise<string[]> }) {
  return t.storedMediaKeys('speakers/');
}

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A connected socket.io client that has joined the given rooms: each watch is acknowledged. */
export async function watchingSocket(baseUrl: string, rooms: WatchRequest[]): Promise<TestSocket> {
  const socket: TestSocket = io(baseUrl, { transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  for (const room of rooms) {
    if (!(await socket.emitWithAck('watch', room))) throw new Error('watch refused');
  }
  return socket;
}

/** Collects the payloads of one event as they arrive. */
export function collect<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
): Parameters<ServerToClientEvents[E]>[0][] {
  const received: Parameters<ServerToClientEvents[E]>[0][] = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => {
    received.push(payload);
  }) as never);
  return received;
}

/** Joins as an attendee: the attendee token `POST /api/attendees` answers. */
export async function joinAttendee(baseUrl: string, username: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/attendees`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username }),
  });
  if (response.status !== 201) throw new Error(`join failed: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** Signs a speaker up and answers the speaker with the secret shown once. */
export async function addSpeakerWithSecret(
  baseUrl: string,
  name: string,
): Promise<{ speaker: Speaker; secret: string }> {
  return signUp(baseUrl, {
    name,
    stack: 'Compilers',
    bio: 'Speaks here.',
    picture: { data: await pngImage(64, 64) },
  });
}

/** Logs a speaker in with the secret: the speaker token. */
export async function speakerToken(
  baseUrl: string,
  username: string,
  secret: string,
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/speakers/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, secret }),
  });
  const body = (await response.json()) as { token?: string };
  if (response.status !== 200 || !body.token) throw new Error(`login failed: ${response.status}`);
  return body.token;
}

/** Logs the admin in: the admin token. */
export async function adminToken(
  baseUrl: string,
  password: string,
  username = 'admin',
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) throw new Error(`admin login failed: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** The `authorization` header that carries `token`; none without one. */
export const bearer = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

/** A token of the right shape signed with another key: what a forger can make. */
export const forged = (token: string) =>
  `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;

/**
 * A request to the app at `baseUrl` with the token given: a JSON `body`, `raw` text sent as
 * JSON (for bodies no serializer makes), or a `form`.
 */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string | undefined; body?: unknown; raw?: string; form?: FormData } = {},
): Promise<Response> {
  const json =
    options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...bearer(options.token),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.form ?? json,
  });
}

/** The message of an error answer, which must have the one error shape. */
export async function errorOf(response: Response): Promise<string> {
  return errorResponseSchema.parse(await response.json()).error;
}
