/**
 * The event's primary colour as the ten shades the UI kit's theme uses, and the CSS that puts
 * them in the page. The theme names the shades as CSS variables (`--confab-brand-0` … `-9`), so
 * the server writes them into every page for the colour in force and an open page changes colour
 * by replacing one `<style>` element: no theme is rebuilt, and the markup is the same whatever the
 * colour (the prerendered join page hydrates as it is).
 */

/** The product's own colour (the UI kit's indigo 6): its shades are the UI kit's own. */
export const DEFAULT_PRIMARY_COLOR = '#4c6ef5';
const INDIGO = [
  '#edf2ff',
  '#dbe4ff',
  '#bac8ff',
  '#91a7ff',
  '#748ffc',
  '#5c7cfa',
  '#4c6ef5',
  '#4263eb',
  '#3b5bdb',
  '#364fc7',
] as const;

/** The `id` of the page's `<style>` element holding the shades. */
export const BRAND_STYLE_ID = 'confab-brand';

type Rgb = [number, number, number];

const parse = (hex: string): Rgb => {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
};
const format = (rgb: Rgb) =>
  `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
const mix = (rgb: Rgb, to: number, amount: number): Rgb =>
  rgb.map((c) => c + (to - c) * amount) as Rgb;

/** WCAG relative luminance. */
const luminance = (rgb: Rgb) => {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: Rgb, b: Rgb) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

const WHITE: Rgb = [255, 255, 255];
/** The darkest surface text in the primary colour sits on in dark mode (dark 6). */
const DARK_SURFACE: Rgb = [0x2e, 0x2e, 0x2e];
/** The contrast the filled shade keeps under white text and shade 4 keeps on dark surfaces. */
const MIN_CONTRAST = 4.7;

/**
 * Ten shades of `hex` (`#rrggbb`), lightest first, the colour itself at 6. The theme uses shade
 * 8 under white text (buttons) and as text on light surfaces, and shade 4 as text on dark
 * ones: both are moved, darker or lighter, until they keep 4.7:1 against those, whatever colour
 * the organiser picks.
 */
export function brandPalette(hex: string): string[] {
  const color = hex.toLowerCase();
  if (color === DEFAULT_PRIMARY_COLOR) return [...INDIGO];
  const base = parse(color);
  const shades: Rgb[] = [
    ...[0.9, 0.78, 0.62, 0.45, 0.28, 0.12].map((amount) => mix(base, 255, amount)),
    base,
    ...[0.12, 0.24, 0.36].map((amount) => mix(base, 0, amount)),
  ];
  for (let i = 0; i < 60 && contrast(shades[8] as Rgb, WHITE) < MIN_CONTRAST; i += 1) {
    shades[8] = mix(shades[8] as Rgb, 0, 0.05);
    shades[9] = mix(shades[8], 0, 0.15);
  }
  for (let i = 0; i < 60 && contrast(shades[4] as Rgb, DARK_SURFACE) < MIN_CONTRAST; i += 1) {
    shades[4] = mix(shades[4] as Rgb, 255, 0.05);
  }
  return shades.map(format);
}

/** The CSS rule setting the shades of `hex` on the page. */
export const brandCss = (hex: string): string =>
  `:root{${brandPalette(hex)
    .map((shade, index) => `--confab-brand-${index}:${shade}`)
    .join(';')}}`;
