import { useEffect, useState } from 'react';

/** One clock for every time label and "on now" of the page, ticking twice a minute. */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/** The time now (milliseconds), kept current: it moves on twice a minute. */
export function useNow(): number {
  const [value, setValue] = useState(() => Date.now());
  useEffect(() => {
    const update = () => setValue(Date.now());
    listeners.add(update);
    timer ??= setInterval(() => {
      for (const listener of listeners) listener();
    }, 30_000);
    return () => {
      listeners.delete(update);
      if (listeners.size === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  }, []);
  return value;
}
