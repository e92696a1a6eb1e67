import { MantineProvider, SegmentedControl } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SegmentsAsDrawn } from './question-parts.tsx';

const data = [
  { value: 'chat', label: 'Chat' },
  { value: 'top', label: 'Top' },
  { value: 'recent', label: 'Recent' },
];

/** The markup, its generated ids made alike. */
const drawn = (element: React.ReactNode) =>
  renderToStaticMarkup(<MantineProvider>{element}</MantineProvider>).replaceAll(
    /mantine-_R_[^"-]+_/g,
    'mantine-id',
  );

describe('the order switch of the first render', () => {
  it.each([['xs'], ['sm'], [undefined]] as const)(
    'is drawn as the segmented control draws itself, at size %s',
    (size) => {
      for (const value of ['chat', 'recent']) {
        expect(
          drawn(
            <SegmentsAsDrawn
              data={data}
              value={value}
              size={size}
              label="Order of the questions"
              onChange={() => undefined}
            />,
          ),
        ).toBe(
          drawn(
            <SegmentedControl
              data={data}
              value={value}
              size={size}
              aria-label="Order of the questions"
              onChange={() => undefined}
            />,
          ),
        );
      }
    },
  );
});
