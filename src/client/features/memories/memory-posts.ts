import type { Memory } from '../../../shared/schemas/memory.ts';

/** One gallery tile: a post's memories, in the post's order (its first file first). */
export interface MemoryPost {
  postId: string;
  /** Never empty. */
  items: [Memory, ...Memory[]];
}

/**
 * The gallery's tiles from its memories (newest first, as the list answers them): one tile per
 * post, at the place of the post's newest memory, which is its first file (decision 143). Pages
 * never split a post, and a post's memories are next to each other in the list; grouping by id
 * rather than by neighbours also holds when they are not.
 */
export function groupPosts(memories: readonly Memory[]): MemoryPost[] {
  const posts = new Map<string, MemoryPost>();
  for (const memory of memories) {
    const post = posts.get(memory.postId);
    if (post) post.items.push(memory);
    else posts.set(memory.postId, { postId: memory.postId, items: [memory] });
  }
  return [...posts.values()];
}

/** The memories in the order the viewer steps through them: each post's in turn, as tiles go. */
export const viewerOrder = (posts: readonly MemoryPost[]): Memory[] =>
  posts.flatMap((post) => post.items);
