import { type CSSVariablesResolver, createTheme } from '@mantine/core';

/**
 * One theme: a single primary colour, the system font stack, large touch targets, and colours
 * that keep text readable (WCAG AA, 4.5:1) in both modes; tests/e2e/accessibility.spec.ts
 * checks every screen with axe.
 */
export const theme = createTheme({
  // The event's colour, set by the organiser (decision 162): its ten shades are CSS variables
  // the server writes into the page (`src/shared/brand-palette.ts`), so it changes without a
  // new theme. With the default colour they are the UI kit's indigo.
  colors: {
    brand: Array.from({ length: 10 }, (_, shade) => `var(--confab-brand-${shade})`) as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ],
  },
  primaryColor: 'brand',
  // White on indigo 8 is 5.7:1 (on 6 it was 4.3:1), and red 8 still carries white text (4.5:1)
  // on the Delete button. Text in the primary colour uses --mantine-color-anchor (indigo 8 on
  // light backgrounds, indigo 4 on dark ones), never the filled background colour.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  // The stack itself is in font.css, so the page shell has it before the theme loads.
  fontFamily: 'var(--confab-font-family)',
  headings: { fontWeight: '800' },
  respectReducedMotion: true,
  components: {
    Button: { defaultProps: { size: 'md' } },
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    // Text areas grow with what is typed, from three lines to eight, then scroll.
    Textarea: { defaultProps: { size: 'md', autosize: true, minRows: 3, maxRows: 8 } },
    // Every dialog of the app: centred, rounded, its title in the headings' weight. The two tall
    // forms (sharing memories) opt out of centring, so they open at the top and scroll.
    Modal: {
      styles: { title: { fontWeight: 800, fontSize: 'var(--mantine-font-size-xl)' } },
      defaultProps: {
        centered: true,
        radius: 'lg',
        closeButtonProps: { 'aria-label': 'Close' },
        // The modal's <header> holds its title and close button; inside a dialog it is not the
        // page's banner, so it must not be announced as a second one.
        attributes: { header: { role: 'none' } },
      },
    },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    // The drop zone is the button; its file input is only opened through it, so the input is
    // kept out of the accessibility tree (a focusable control inside a button is announced twice).
    // Keyed by name, so the join page's bundle does not pull in the dropzone package.
    Dropzone: { defaultProps: { inputProps: { style: { display: 'none' } } } },
  },
});

/**
 * Mantine's defaults, with the secondary ("dimmed") and error text darkened in light mode and
 * lightened in dark mode, so they reach 4.5:1 on every surface they sit on (body, cards,
 * hovered rows, the light primary and red backgrounds).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // The app's own pairs of colours, one per scheme: what `light-dark()` would say, which the
  // build's CSS lowering turns into variables nothing defines.
  light: {
    '--confab-color-strong': 'var(--mantine-color-black)',
    '--confab-color-soft': 'var(--mantine-color-gray-7)',
    '--confab-surface-muted': 'var(--mantine-color-gray-1)',
    '--confab-surface-subtle': 'var(--mantine-color-gray-0)',
    // gray 7: 8.2:1 on white, 6.5:1 on the light indigo of one's own question.
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // red 9: 5.5:1 on white, 4.5:1 on the light red of an error alert.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--confab-color-strong': 'var(--mantine-color-white)',
    '--confab-color-soft': 'var(--mantine-color-gray-4)',
    '--confab-surface-muted': 'var(--mantine-color-dark-6)',
    '--confab-surface-subtle': 'var(--mantine-color-dark-8)',
    // Between dark 1 (the body text is dark 0) and dark 2 (4.0:1): 4.6:1 even on dark 5.
    '--mantine-color-dimmed': '#a6a6a6',
    // red 4: 5.9:1 on dark 6, 5.4:1 on the dark red of an error alert.
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
