import { describe, expect, it } from 'vitest';
import { memoryFixture } from '../../../../tests/support/memory-fixture.ts';
import { groupPosts, viewerOrder } from './memory-posts.ts';

const memory = (id: string, postId: string) => memoryFixture(id, { postId });

describe('groupPosts', () => {
  it('makes one tile per post, in the order of each post’s first memory', () => {
    const list = [
      memory('f', 'p3'),
      memory('e', 'p2'),
      memory('d', 'p2'),
      memory('c', 'p2'),
      memory('b', 'p1'),
    ];
    const posts = groupPosts(list);
    expect(posts.map((post) => [post.postId, post.items.map((m) => m._id)])).toEqual([
      ['p3', ['f']],
      ['p2', ['e', 'd', 'c']],
      ['p1', ['b']],
    ]);
    expect(viewerOrder(posts).map((m) => m._id)).toEqual(['f', 'e', 'd', 'c', 'b']);
  });

  it('keeps a post together even when another post’s memory sits between its memories', () => {
    const posts = groupPosts([memory('d', 'p2'), memory('c', 'p1'), memory('b', 'p2')]);
    expect(posts.map((post) => post.items.map((m) => m._id))).toEqual([['d', 'b'], ['c']]);
    expect(viewerOrder(posts).map((m) => m._id)).toEqual(['d', 'b', 'c']);
  });

  it('answers no tiles for no memories', () => {
    expect(groupPosts([])).toEqual([]);
  });
});
