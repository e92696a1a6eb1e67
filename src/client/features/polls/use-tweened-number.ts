import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

/** How long a figure takes to count to its new value. */
const TWEEN_MS = 600;

/**
 * A number that counts to `value` when it changes (an ease-out over 600 ms) instead of jumping,
 * as a result's bars slide; at once under `prefers-reduced-motion`, and at the first render.
 */
export function useTweenedNumber(value: number): number {
  const reduced = useReducedMotion();
  const [shown, setShown] = useState(value);
  const from = useRef(value);
  useEffect(() => {
    const start = from.current;
    if (reduced || start === value) {
      from.current = value;
      setShown(value);
      return undefined;
    }
    const began = performance.now();
    let frame = 0;
    const step = (time: number) => {
      const progress = Math.min(1, (time - began) / TWEEN_MS);
      const eased = 1 - (1 - progress) ** 3;
      const current = start + (value - start) * eased;
      from.current = current;
      setShown(current);
      if (progress < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [value, reduced]);
  return shown;
}
