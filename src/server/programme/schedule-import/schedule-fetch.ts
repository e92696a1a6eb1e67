import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { badRequest, tooLarge } from '../../http/errors.ts';

/** How a schedule is fetched from an address the organiser gives (decision 213). */
export interface ScheduleFetchOptions {
  /** Hosts fetched even though they are on the server's own network (`SCHEDULE_ALLOWED_HOSTS`). */
  allowedHosts: readonly string[];
  /** The whole fetch, redirects and body included. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

/**
 * Addresses of the server's own networks: loopback, private, carrier-grade NAT, link-local,
 * unique-local, multicast, reserved and "this network" ranges. A schedule is never fetched from
 * them unless its host is allowed.
 */
const NOT_PUBLIC = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 96], // unspecified, loopback and the old IPv4-compatible form
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['100::', 64],
] as const) {
  NOT_PUBLIC.addSubnet(prefix, bits, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 IPv6 address, if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:::ffff:(?:0:)?|64:ff9b::)(.+)$/i.exec(address);
  if (!match?.[1]) return undefined;
  const tail = match[1];
  if (net.isIPv4(tail)) return tail;
  const groups = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
  if (!groups) return undefined;
  const high = parseInt(groups[1] ?? '0', 16);
  const low = parseInt(groups[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether `address` (an IP) is on the public internet rather than on the server's network. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const inner = embeddedIpv4(address);
  if (inner !== undefined) return isPublicAddress(inner);
  return !NOT_PUBLIC.check(address, 'ipv6');
}

const refused = (problem: string) => badRequest('scheduleUrl', problem);
const failed = (problem: string) => badRequest('scheduleFetch', problem);

/** The URL checked: http(s) only, no credentials, and a host that may be fetched. */
function checkedUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw refused(`"${text.slice(0, 200)}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refused(
      `only http and https addresses are fetched, not ${url.protocol.replace(':', '')}`,
    );
  }
  if (url.username || url.password) throw refused('an address with a user name or password');
  return url;
}

/** A host name as it is compared: lower case, an IPv6 literal without its brackets. */
const bareHost = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, '');

/**
 * A DNS lookup that answers only public addresses (all of a name's must be): what the request
 * connects to is what was checked, so a name cannot point at the server's network between the
 * check and the connection.
 */
const publicLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, '', 4);
      return;
    }
    const found = addresses;
    const inside = found.find((entry) => !isPublicAddress(entry.address));
    if (inside || found.length === 0) {
      const refusal = Object.assign(
        new Error(
          `${hostname} is on the server's own network (${inside?.address ?? 'no address'})`,
        ),
        { code: 'SCHEDULE_PRIVATE_ADDRESS' },
      );
      callback(refusal, '', 4);
      return;
    }
    if (options.all) {
      callback(null, found);
    } else {
      const [first] = found;
      callback(null, first?.address ?? '', first?.family ?? 4);
    }
  });
};

interface Answer {
  status: number;
  location: string | undefined;
  body: Buffer | undefined;
}

/** One request, without following redirects; the body read up to `maxBytes` (a 413 past it). */
function requestOnce(
  url: URL,
  allowed: boolean,
  options: ScheduleFetchOptions,
  signal: AbortSignal,
) {
  return new Promise<Answer>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(
      url,
      {
        signal,
        headers: { accept: 'application/xml, text/xml, application/json;q=0.9, */*;q=0.1' },
        ...(allowed ? {} : { lookup: publicLookup }),
        // One connection for one request: no agent's pool keeps sockets between fetches.
        agent: false,
      },
      (response) => {
        // The address actually connected to, checked once more (an IP literal skips the lookup).
        const remote = response.socket.remoteAddress ?? '';
        if (!allowed && !isPublicAddress(remote)) {
          response.destroy();
          reject(refused(`${url.hostname} is on the server's own network (${remote})`));
          return;
        }
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          resolve({ status, location: response.headers.location, body: undefined });
          return;
        }
        if (status < 200 || status >= 300) {
          response.resume();
          reject(failed(`${url.host} answered ${status}`));
          return;
        }
        const declared = Number(response.headers['content-length'] ?? NaN);
        if (declared > options.maxBytes) {
          response.destroy();
          reject(tooLarge('schedule', Math.floor(options.maxBytes / 1024 / 1024)));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            reject(tooLarge('schedule', Math.floor(options.maxBytes / 1024 / 1024)));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          resolve({ status, location: undefined, body: Buffer.concat(chunks) });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/**
 * Fetches a schedule from an organiser's address (decision 213): http or https only; the host's
 * every address must be public unless the host is allowed (`allowedHosts`), checked on the
 * address connected to; at most `maxRedirects` redirects, each checked the same way; the whole
 * fetch within `timeoutMs`, the body within `maxBytes`. Answers the body as text; every refusal
 * and failure is a 4xx that says why.
 */
export async function fetchScheduleText(
  address: string,
  options: ScheduleFetchOptions,
): Promise<string> {
  const allowedHosts = new Set(options.allowedHosts.map(bareHost));
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = checkedUrl(address);
  for (let redirects = 0; ; redirects += 1) {
    const host = bareHost(url.hostname);
    const allowed = allowedHosts.has(host);
    if (!allowed && net.isIP(host) && !isPublicAddress(host)) {
      throw refused(`${host} is on the server's own network`);
    }
    let answer: Answer;
    try {
      answer = await requestOnce(url, allowed, options, signal);
    } catch (error) {
      throw fetchRefusal(error, url, options.timeoutMs);
    }
    if (answer.body) {
      const text = answer.body.toString('utf8');
      return text.startsWith('\uFEFF') ? text.slice(1) : text;
    }
    if (!answer.location) throw failed(`${url.host} answered ${answer.status} without a Location`);
    if (redirects >= options.maxRedirects) {
      throw failed(`more than ${options.maxRedirects} redirects`);
    }
    url = checkedUrl(answer.location, url);
  }
}

/** Why a fetch failed, as the 4xx the organiser reads. */
function fetchRefusal(error: unknown, url: URL, timeoutMs: number): unknown {
  if (typeof error !== 'object' || error === null) return failed('the request failed');
  if ('statusCode' in error) return error; // one of ours already
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (code === 'SCHEDULE_PRIVATE_ADDRESS') return refused(String(message));
  if (name === 'AbortError' || name === 'TimeoutError' || code === 'ABORT_ERR') {
    const limit = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} seconds` : `${timeoutMs} ms`;
    return failed(`${url.host} did not answer within ${limit}`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return failed(`${url.hostname} is not known`);
  if (typeof code === 'string') return failed(`${url.host}: ${code}`);
  return failed(`${url.host}: the request failed`);
}
