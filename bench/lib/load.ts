import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers that are neither 2xx nor 304, plus connection errors and timeouts. */
  failures: number;
  statusCounts: Record<string, number>;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** A body of its own for each request: for writes that refuse repeats. */
  bodyOf?: () => string;
}

/** Autocannon's request hook that gives each request the next body. */
function withBodyOf(bodyOf: () => string) {
  return (request: autocannon.Request): autocannon.Request => ({ ...request, body: bodyOf() });
}

/** Sends as many requests as the server takes for a while; the load runs in this process. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? 5,
    headers: options.headers ?? {},
    method: options.method ?? 'GET',
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.bodyOf === undefined
      ? {}
      : { requests: [{ setupRequest: withBodyOf(options.bodyOf) }] }),
  });
  const statusCounts: Record<string, number> = {};
  for (const [code, value] of Object.entries(
    result.statusCodeStats as Record<string, { count: number }>,
  )) {
    statusCounts[code] = value.count;
  }
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    failures:
      result.errors +
      result.timeouts +
      Object.entries(statusCounts)
        .filter(([code]) => !code.startsWith('2') && code !== '304')
        .reduce((sum, [, count]) => sum + count, 0),
    statusCounts,
  };
}
