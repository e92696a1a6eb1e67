import { describe, expect, it } from 'vitest';
import { mergeById } from './merge-by-id.ts';

const item = (id: string, label = id) => ({ _id: id, label });

describe('mergeById', () => {
  it('adds new items in id order and never duplicates one', () => {
    const current = [item('01'), item('03')];
    const merged = mergeById(current, [item('04'), item('02'), item('03', 'again'), item('04')]);
    expect(merged.map((i) => i._id)).toEqual(['01', '02', '03', '04']);
    expect(merged.find((i) => i._id === '03')?.label).toBe('03');
  });

  it('answers the same array when nothing is new, so nothing renders again', () => {
    const current = [item('01'), item('02')];
    expect(mergeById(current, [item('02'), item('01')])).toBe(current);
    expect(mergeById(current, [])).toBe(current);
  });

  it('starts a list when there was none, and sorts with the given order', () => {
    expect(mergeById(undefined, [item('b'), item('a'), item('b')]).map((i) => i._id)).toEqual([
      'a',
      'b',
    ]);
    const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
    const merged = mergeById([item('2', 'zed')], [item('1', 'amy')], byLabel);
    expect(merged.map((i) => i.label)).toEqual(['amy', 'zed']);
  });
});
