import type { FastifyRequest } from 'fastify';
import { badRequest, tooLarge } from '../http/errors.ts';
import { type MultipartForm, readMultipart } from '../http/transport/multipart.ts';

/**
 * Reads a form that carries one picture, in the file field `field`, and its text fields. The
 * picture is kept in memory (it is at most `maxMb`) because it is decoded whole; it is empty when
 * none was sent.
 */
export async function readPictureForm(
  request: FastifyRequest,
  form: { field: string; maxMb: number } & Pick<
    MultipartForm,
    'maxFields' | 'fieldBytes' | 'labels'
  >,
): Promise<{ fields: Record<string, string>; picture: Buffer }> {
  const { field, maxMb, ...text } = form;
  const chunks: Buffer[] = [];
  const fields = await readMultipart(
    request,
    {
      fileBytes: Math.floor(maxMb * 1024 * 1024),
      fileFields: [field],
      maxFiles: 1,
      ...text,
      refusals: {
        tooLarge: () => tooLarge('picture', field, maxMb),
        tooManyFiles: () => badRequest('onePicture', field),
      },
    },
    async (file) => {
      for await (const chunk of file.body) chunks.push(chunk);
    },
  );
  return { fields, picture: Buffer.concat(chunks) };
}
