import {
  type MantineBreakpoint,
  SimpleGrid,
  type SimpleGridProps,
  useMatches,
} from '@mantine/core';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  Fragment,
  type ReactNode,
  startTransition,
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import classes from './virtual-grid.module.css';

/** Columns by Mantine breakpoint, as SimpleGrid takes them: `{ base: 2, sm: 3, md: 4 }`. */
export type GridColumns = { base: number } & Partial<Record<MantineBreakpoint, number>>;

/** Where an item sits: its index in `items` and the row it is in (0 is the first row). */
export interface GridPlace {
  index: number;
  row: number;
}

/** A first guess at a row's height; the first row measured replaces it. */
const INITIAL_ROW_ESTIMATE = 300;

/**
 * A SimpleGrid of many items that keeps only the rows near the viewport in the DOM. The page
 * scrolls as a whole, so rows are virtualised against the window; the rows above and below the
 * rendered ones are stood in for by the grid's own top and bottom padding. The rendered items
 * therefore sit in one grid, in order, as they would without virtualisation: same column widths,
 * same spacing, same tab order, and an item keeps its DOM node when a new one is added in front.
 *
 * Each row is measured once rendered (its tallest item plus the row gap); a row not yet rendered
 * is taken to be as tall as the last one measured. When the width or the column count changes
 * (a rotated phone, a resized window), the item that was at the top of the viewport is brought
 * back there. `renderItem` must render exactly one element per item.
 */
export function VirtualGrid<T>(props: VirtualGridProps<T>) {
  return typeof window === 'undefined' ? <ServerGrid {...props} /> : <WindowGrid {...props} />;
}

interface VirtualGridProps<T> {
  items: readonly T[];
  cols: GridColumns;
  spacing: SimpleGridProps['spacing'];
  getKey: (item: T) => string;
  renderItem: (item: T, place: GridPlace) => ReactNode;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
}

/** Rows the server renders: what the widest grid shows on a screen before any scrolling. */
const SERVER_ROWS = 3;

/**
 * The grid as the server renders it (decision 185): no window to measure, so the first rows of
 * the widest layout, in a grid whose columns follow the width by CSS. The browser paints the
 * same first rows at any width; the client's first render replaces them with the virtual grid.
 */
function ServerGrid<T>({ items, cols, spacing, getKey, renderItem }: VirtualGridProps<T>) {
  const widest = Math.max(cols.base, ...Object.values(cols).filter((n) => n !== undefined));
  return (
    <SimpleGrid cols={cols} spacing={spacing} className={classes.grid}>
      {items.slice(0, widest * SERVER_ROWS).map((item, index) => (
        <Fragment key={getKey(item)}>
          {renderItem(item, { index, row: Math.floor(index / cols.base) })}
        </Fragment>
      ))}
    </SimpleGrid>
  );
}

function WindowGrid<T>({
  items,
  cols: columns,
  spacing,
  getKey,
  renderItem,
  overscan = 3,
}: VirtualGridProps<T>) {
  // Read at once (the server renders `ServerGrid`), so the first render has the right count.
  const cols = useMatches(columns, { getInitialValueInEffect: false });
  const gridRef = useRef<HTMLDivElement>(null);
  const typicalRow = useRef(INITIAL_ROW_ESTIMATE);
  const [scrollMargin, setScrollMargin] = useState(0);

  const virtualizer = useWindowVirtualizer({
    count: Math.ceil(items.length / cols),
    estimateSize: useCallback(() => typicalRow.current, []),
    overscan,
    scrollMargin,
    // The window's size from the first render on: with none, the first render shows no rows,
    // and measuring the window as it attaches re-renders at once (decision 254).
    initialRect: { width: window.innerWidth, height: window.innerHeight },
  });
  const rows = virtualizer.getVirtualItems();
  const firstRow = rows[0];
  const lastRow = rows.at(-1);
  const from = (firstRow?.index ?? 0) * cols;
  const to = Math.min(items.length, ((lastRow?.index ?? -1) + 1) * cols);
  const paddingTop = firstRow ? firstRow.start - scrollMargin : 0;
  const paddingBottom = lastRow ? virtualizer.getTotalSize() - (lastRow.end - scrollMargin) : 0;

  // What the DOM shows, for the measurements taken once it is laid out.
  const rendered = useRef({ rows, cols });

  // Set when the width or the column count changes: every row's height is then out of date.
  const relayout = useRef(false);

  /**
   * Measures the rendered rows: all reads first, then the updates (each may re-render). After a
   * relayout, the rows not rendered start again from the new typical height.
   */
  const measureRows = useCallback(() => {
    const grid = gridRef.current;
    if (!grid) return;
    const { rows: shown, cols: perRow } = rendered.current;
    const gap = Number.parseFloat(getComputedStyle(grid).rowGap) || 0;
    const cells = [...grid.children];
    const sizes = shown.map((row, r) => {
      const heights = cells
        .slice(r * perRow, (r + 1) * perRow)
        .map((cell) => cell.getBoundingClientRect().height);
      const height = Math.max(0, ...heights);
      return { index: row.index, size: height > 0 ? height + gap : 0 };
    });
    for (const { size } of sizes) if (size > 0) typicalRow.current = size;
    if (relayout.current) {
      relayout.current = false;
      virtualizer.measure();
      virtualizer.getTotalSize(); // lays every row out again from the new estimate
    }
    for (const { index, size } of sizes) if (size > 0) virtualizer.resizeItem(index, size);
  }, [virtualizer]);

  // The item at the top of the viewport (and how far into its row), noted as the reader scrolls.
  // After a change of width or columns, `restoring` holds the scroll position set to bring it
  // back, until the reader scrolls again.
  const topItem = useRef<{ item: number; within: number } | null>(null);
  const restoring = useRef<number | null>(null);
  const restore = useCallback(() => {
    const target = topItem.current;
    if (!target || restoring.current === null) return;
    const offset = virtualizer.getOffsetForIndex(
      Math.floor(target.item / rendered.current.cols),
      'start',
    );
    if (!offset) return;
    const top = offset[0] + target.within * typicalRow.current;
    if (Math.abs(top - window.scrollY) >= 1) window.scrollTo({ top });
    restoring.current = window.scrollY;
  }, [virtualizer]);

  // One observer for the grid (its width sets every row's height), the page (content above the
  // grid moves it) and every rendered item (new rows, rows that change size).
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    let width = grid.getBoundingClientRect().width;
    const place = () => {
      const top = grid.getBoundingClientRect().top + window.scrollY;
      setScrollMargin((current) => (Math.abs(current - top) < 0.5 ? current : top));
    };
    // As a transition: state set as the grid attaches would make React re-render at once, and
    // run every effect of the screen in that same task (decision 254). Until then the rows are
    // placed as if the grid began at the page's top: a few rows off, which the overscan covers.
    startTransition(place);
    const resizeObserver = new ResizeObserver(() => {
      place();
      const now = grid.getBoundingClientRect().width;
      if (now !== width) {
        width = now;
        restoring.current ??= window.scrollY;
        relayout.current = true;
      }
      measureRows();
      restore();
    });
    resizeObserver.observe(grid);
    resizeObserver.observe(document.body);
    observer.current = resizeObserver;
    const onScroll = () => {
      const y = window.scrollY;
      if (restoring.current !== null && Math.abs(y - restoring.current) < 1) return;
      restoring.current = null;
      const row = virtualizer.getVirtualItemForOffset(y);
      topItem.current =
        row && row.size > 0 && y >= row.start
          ? { item: row.index * rendered.current.cols, within: (y - row.start) / row.size }
          : null;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    const cells = observed.current;
    return () => {
      window.removeEventListener('scroll', onScroll);
      resizeObserver.disconnect();
      observer.current = null;
      cells.clear();
    };
  }, [virtualizer, measureRows, restore]);

  // After each render: note what the DOM shows, observe the items that have just appeared,
  // forget those that have gone, and keep the top item in place through a change of columns.
  useLayoutEffect(() => {
    const columnsChanged = rendered.current.cols !== cols;
    rendered.current = { rows, cols };
    const grid = gridRef.current;
    const resizeObserver = observer.current;
    if (!grid || !resizeObserver) return;
    for (const cell of observed.current) {
      if (cell.parentElement !== grid) {
        resizeObserver.unobserve(cell);
        observed.current.delete(cell);
      }
    }
    for (const cell of grid.children) {
      if (!observed.current.has(cell)) {
        resizeObserver.observe(cell);
        observed.current.add(cell);
      }
    }
    if (columnsChanged) {
      // The items observed above report their new sizes, and the rows are measured again then.
      relayout.current = true;
      restoring.current ??= window.scrollY;
    }
    restore();
  });

  return (
    <SimpleGrid
      ref={gridRef}
      cols={cols}
      spacing={spacing}
      className={classes.grid}
      style={{ paddingTop, paddingBottom }}
    >
      {items.slice(from, to).map((item, offset) => (
        <Fragment key={getKey(item)}>
          {renderItem(item, { index: from + offset, row: Math.floor((from + offset) / cols) })}
        </Fragment>
      ))}
    </SimpleGrid>
  );
}
