/** Runs at most `concurrency` tasks at once; the others wait their turn in order. */
export function createLimiter(concurrency: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finished task hands its slot straight to the next waiting one.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      release();
    }
  };
}

export type Limiter = ReturnType<typeof createLimiter>;
