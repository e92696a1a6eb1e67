import http from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent, before any decoding. */
  body: Buffer;
}

/** A GET whose body is read as it comes over the wire (fetch would decode it). */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Sends bytes as they are (a request no HTTP client would make) and reads all of the answer. */
export function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

/**
 * A memory post whose body arrives in two halves: its fields and the first half of the image
 * go out at once; `finish` sends the rest and answers the status and body.
 */
export function halfSentMemoryPost(
  url: string,
  image: Buffer,
  fields: { caption: string; username: string },
) {
  const boundary = `----confab${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\n${fields.caption}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="username"\r\n\r\n${fields.username}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="p.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(image.length / 2);
  let request: http.ClientRequest | undefined;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request = http.request(
      `${url}/api/memories`,
      { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.write(Buffer.concat([head, image.subarray(0, half)]));
  });
  return {
    finish: () => {
      request?.end(Buffer.concat([image.subarray(half), tail]));
      return answer;
    },
  };
}
