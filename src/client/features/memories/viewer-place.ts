import { useEffect } from 'react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { imageUrlOf, isImage } from './memory-media-view.tsx';

/** Where the shown memory is: its place in its post, and whether there is a step either way. */
export interface ViewerPlace {
  memory: Memory;
  /** 1-based place in its post, and the post's size. */
  inPost: { index: number; count: number };
  hasPrevious: boolean;
  hasNext: boolean;
}

/** Fetches the pictures either side of the shown one, so a step shows them at once. */
export function usePreloadNeighbours(neighbours: readonly (Memory | undefined)[]): void {
  const urls = neighbours
    .filter((memory): memory is Memory => memory !== undefined && isImage(memory))
    .map((memory) => imageUrlOf(memory, 'full'))
    .join('\n');
  useEffect(() => {
    if (!urls) return;
    for (const url of urls.split('\n')) {
      const image = new Image();
      image.decoding = 'async';
      image.src = url;
    }
  }, [urls]);
}
