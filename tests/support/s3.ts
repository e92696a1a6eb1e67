import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** Environment that points an app at this server's bucket. */
  env: Record<string, string>;
  settings: {
    endpoint: string;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
  };
  /** Files s3rver keeps for the bucket (to check what is stored). */
  directory: string;
  close(): Promise<void>;
}

/**
 * What s3rver lacks of S3's multipart uploads and resumable uploads need: ListParts (`GET
 * ?uploadId=`, how much of an upload the bucket has) and AbortMultipartUpload (`DELETE
 * ?uploadId=`). Answered from the parts s3rver keeps under `<bucket>/.../uploads/<uploadId>/`.
 */
function addMultipartListing(server: S3rver, directory: string): void {
  const koa = server as unknown as {
    middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  };
  const partsDir = (bucket: string, uploadId: string) =>
    path.join(directory, bucket, '._S3rver_uploads', path.basename(uploadId));
  koa.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const match = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (typeof uploadId !== 'string' || !match || !['GET', 'DELETE'].includes(ctx.method)) {
      await next();
      return;
    }
    const [, bucket = '', key = ''] = match;
    const dir = partsDir(bucket, uploadId);
    if (ctx.method === 'DELETE') {
      await fs.rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const names = await fs.readdir(dir).catch(() => undefined);
    if (!names) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code>' +
        '<Message>The specified upload does not exist.</Message></Error>';
      return;
    }
    const numbers = names
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const stats = await fs.stat(path.join(dir, String(n)));
        const md5 = await fs.readFile(path.join(dir, `${n}.md5`), 'utf8').catch(() => '');
        return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${stats.size}</Size></Part>`;
      }),
    );
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?><ListPartsResult>' +
      `<Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId>` +
      `<IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  });
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: string;
}

/** A real S3-compatible server (s3rver) on a free port, with one empty bucket. */
export async function startTestS3(bucket = 'confab'): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  addMultipartListing(server, directory);
  const { port } = await server.run();
  const settings = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  return {
    settings,
    directory,
    env: {
      MEDIA_STORE: 's3',
      S3_ENDPOINT: settings.endpoint,
      S3_REGION: settings.region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
