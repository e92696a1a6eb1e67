/**
 * Resolves once the frame being drawn has painted and the browser is idle, or after `timeout`
 * ms at the latest: for code the first screen does not need (the toasts, the socket), so its
 * download does not compete with what the screen shows first (decision 093).
 */
export function whenIdle(timeout = 2000): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      if (typeof window.requestIdleCallback === 'function') {
        window.requestIdleCallback(() => resolve(), { timeout });
      } else {
        setTimeout(resolve, 0);
      }
    });
  });
}
