import { useEffect, useState } from 'react';

/** How often a programme screen looks at the clock again: "now" moves on by itself. */
const TICK_MS = 30_000;

/** The time now, in milliseconds, read again every 30 seconds while the screen is shown. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
