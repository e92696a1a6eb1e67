import type { FastifyRequest } from 'fastify';
import { type SpeakerFields, speakerFieldsSchema } from '../../shared/schemas/speaker.ts';
import { HttpError } from '../http/errors.ts';

const TEXT_FIELDS = ['name', 'stack', 'bio'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
const isTextField = (name: string): name is TextField =>
  (TEXT_FIELDS as readonly string[]).includes(name);

const LABELS: Record<TextField, string> = { name: 'Full name', stack: 'Stack', bio: 'Bio' };

export interface SpeakerForm {
  fields: SpeakerFields;
  picture: Buffer;
}

const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;

/** Turns the multipart library's limit errors into answers a person understands. */
function formError(error: unknown, maxUploadMb: number): HttpError {
  if (error instanceof HttpError) return error;
  switch (codeOf(error)) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, `The picture is larger than ${maxUploadMb} MB`);
    case 'FST_FILES_LIMIT':
      return new HttpError(400, 'Send one picture only');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new HttpError(400, 'Too many form fields');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, 'Send the form as multipart/form-data');
    default:
      return new HttpError(400, 'The form could not be read; send it again');
  }
}

/**
 * Reads the sign-up form: `name`, `stack`, `bio` and one `picture` file, in any order. The
 * picture is kept in memory (it is at most the upload limit) because it is decoded whole.
 * Every part is consumed even after a mistake, so the answer is never cut off mid-upload.
 */
export async function readSpeakerForm(
  request: FastifyRequest,
  maxUploadMb: number,
): Promise<SpeakerForm> {
  if (!request.isMultipart()) throw new HttpError(415, 'Send the form as multipart/form-data');
  const values: Partial<Record<TextField, string>> = {};
  let picture: Buffer | undefined;
  let problem: HttpError | undefined;
  const fail = (error: unknown) => {
    problem ??= formError(error, maxUploadMb);
  };

  try {
    const parts = request.parts({
      limits: {
        fileSize: Math.floor(maxUploadMb * 1024 * 1024),
        files: 1,
        fields: 10,
        fieldSize: 16 * 1024,
        parts: 12,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'picture') {
          fail(new HttpError(400, `Unexpected file field "${part.fieldname}"`));
        }
        if (problem) {
          part.file.resume();
          continue;
        }
        try {
          picture = await part.toBuffer();
        } catch (error) {
          fail(error);
        }
      } else if (isTextField(part.fieldname)) {
        if (part.valueTruncated) fail(new HttpError(400, `${LABELS[part.fieldname]} is too long`));
        // Browsers send line breaks in form fields as CRLF; store them as the person typed them.
        else if (typeof part.value === 'string')
          values[part.fieldname] = part.value.replace(/\r\n?/g, '\n');
      }
    }
  } catch (error) {
    fail(error);
  }
  if (problem) throw problem;

  const parsed = speakerFieldsSchema.safeParse(values);
  if (!parsed.success) {
    throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid form', 'VALIDATION');
  }
  if (!picture || picture.length === 0) {
    throw new HttpError(400, 'Picture is required', 'VALIDATION');
  }
  return { fields: parsed.data, picture };
}
