import type { Page } from '@playwright/test';
import { type Row, fmt } from './report.ts';

/** A page's JS heap after a full GC (MB) and its DOM node count, read over the DevTools protocol. */
export async function pageMemory(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  return {
    heapMb: async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      return usedSize / 2 ** 20;
    },
    domNodes: async () => (await cdp.send('Memory.getDOMCounters')).nodes,
  };
}

/** How long a long-running screen took to be live again after `what`, against 20 s. */
export const liveAgainRow = (screen: string, what: string, seconds: number): Row => ({
  name: `${screen}: live again after ${what}`,
  value: `${fmt(seconds, 1)} s`,
  reference: '20 s',
  ratio: fmt(seconds / 20, 2),
  target: '< 20 s',
  met: seconds < 20,
});
