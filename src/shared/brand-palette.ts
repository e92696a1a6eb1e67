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
const BLACK: Rgb = [0, 0, 0];
/** The UI kit's light surfaces text in the primary colour sits on: white, and gray 0. */
const LIGHT_SURFACES: Rgb[] = [WHITE, [0xf8, 0xf9, 0xfa]];
/** Its dark surfaces, dark 8 to dark 5 (the body is dark 7, cards dark 6, hovered rows dark 5). */
const DARK_SURFACES: Rgb[] = [
  [0x1f, 0x1f, 0x1f],
  [0x24, 0x24, 0x24],
  [0x2e, 0x2e, 0x2e],
  [0x3b, 0x3b, 0x3b],
];
/** The contrast every text in a shade keeps on what it sits on: WCAG AA (4.5:1), and a margin. */
const MIN_CONTRAST = 4.7;

/**
 * `shade` moved towards `to` (black or white) in small steps until it keeps MIN_CONTRAST
 * against every colour `against` gives for it (some backgrounds are made from the shade).
 */
function untilReadable(shade: Rgb, to: Rgb, against: (shade: Rgb) => Rgb[]): Rgb {
  let moved = shade;
  for (
    let i = 0;
    i < 80 && against(moved).some((bg) => contrast(moved, bg) < MIN_CONTRAST);
    i += 1
  ) {
    moved = mix(moved, to[0], 0.05);
  }
  return moved;
}

/**
 * Ten shades of `hex` (`#rrggbb`), lightest first, the colour itself at 6 (the default colour
 * starts from the UI kit's indigo). Each shade the theme uses for text, or under white text, is
 * then moved, darker or lighter, until that text keeps 4.7:1 on everything it sits on, whatever
 * colour the organiser picks (`brand-palette.test.ts` sweeps the colour wheel):
 *
 * - light scheme: shade 8 is the links' and the filled buttons' colour (white on it), on white,
 *   gray 0 and the light variant's shades 0 and 1; shade 9 is the light variant's text (on
 *   shades 1 and 2) and the filled buttons' hover (white on it);
 * - dark scheme: shade 4 is the links' colour, on dark 8 to dark 5; shade 0 is the light
 *   variant's text, on shade 9 darkened by half and by 30 % (the UI kit's `darken`).
 */
export function brandPalette(hex: string): string[] {
  const color = hex.toLowerCase();
  const base = parse(color);
  const shades: Rgb[] =
    color === DEFAULT_PRIMARY_COLOR
      ? INDIGO.map(parse)
      : [
          ...[0.9, 0.78, 0.62, 0.45, 0.28, 0.12].map((amount) => mix(base, 255, amount)),
          base,
          ...[0.12, 0.24, 0.36].map((amount) => mix(base, 0, amount)),
        ];
  const at = (index: number) => shades[index] as Rgb;
  shades[8] = untilReadable(at(8), BLACK, () => [...LIGHT_SURFACES, at(0), at(1)]);
  shades[9] = untilReadable(at(9), BLACK, () => [WHITE, at(1), at(2)]);
  shades[4] = untilReadable(at(4), WHITE, () => DARK_SURFACES);
  shades[0] = untilReadable(at(0), WHITE, () => [mix(at(9), 0, 0.5), mix(at(9), 0, 0.3)]);
  return shades.map(format);
}

/** The CSS rule setting the shades of `hex` on the page. */
export const brandCss = (hex: string): string =>
  `:root{${brandPalette(hex)
    .map((shade, index) => `--confab-brand-${index}:${shade}`)
    .join(';')}}`;
