import { describe, expect, it } from 'vitest';
import { DEFAULT_PRIMARY_COLOR, brandPalette } from './brand-palette.ts';

type Rgb = [number, number, number];
const rgb = (hex: string): Rgb => {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
};
const hex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
/** `color-mix(in srgb, a, b amount)`, as the UI kit's darken() writes it for the page. */
const mix = (a: string, b: string, amount: number) => {
  const [x, y] = [rgb(a), rgb(b)];
  return hex(x.map((c, i) => c + ((y[i] ?? 0) - c) * amount) as Rgb);
};
/** WCAG 2 contrast ratio of two opaque colours. */
function contrastRatio(a: string, b: string): number {
  const lum = (color: string) => {
    const [r = 0, g = 0, bl = 0] = rgb(color).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE = '#ffffff';
/** The UI kit's surfaces: gray 0 (hovered rows, the Q&A room), and dark 8 to 5. */
const LIGHT_SURFACES = [WHITE, '#f8f9fa'];
const DARK_SURFACES = ['#1f1f1f', '#242424', '#2e2e2e', '#3b3b3b'];

/**
 * Each text in a brand shade and what it sits on, as the theme (src/client/app/theme.ts, primary
 * shade 8) and the UI kit's variables place them: the anchor and `-text` colour (8 in light, 4
 * in dark), white on the filled colour (8) and its hover (9), the light variant's text (9 on
 * shades 1 and 2 in light; 0 on shade 9 darkened by half and by 30 % in dark).
 */
function textPairs(s: string[]): { name: string; text: string; background: string }[] {
  const [s0 = '', s1 = '', s2 = '', , s4 = '', , , , s8 = '', s9 = ''] = s;
  return [
    ...[...LIGHT_SURFACES, s0, s1].map((bg) => ({
      name: 'anchor (light)',
      text: s8,
      background: bg,
    })),
    ...DARK_SURFACES.map((bg) => ({ name: 'anchor (dark)', text: s4, background: bg })),
    { name: 'white on filled', text: WHITE, background: s8 },
    { name: 'white on filled hover', text: WHITE, background: s9 },
    ...[s1, s2, WHITE].map((bg) => ({ name: 'light variant (light)', text: s9, background: bg })),
    ...[mix(s9, '#000000', 0.5), mix(s9, '#000000', 0.3)].map((bg) => ({
      name: 'light variant (dark)',
      text: s0,
      background: bg,
    })),
  ];
}

/** Every hue (every 15°) at several lightnesses and saturations, and colours known to be hard. */
function sweep(): string[] {
  const colors = new Set([DEFAULT_PRIMARY_COLOR, '#e8590c', '#ffff00', '#00ffff', '#777777']);
  for (const c of ['#000000', '#ffffff', '#ff0000', '#00ff00', '#0000ff', '#ff00ff', '#808080']) {
    colors.add(c);
  }
  const hsl = (h: number, s: number, l: number) => {
    const a = s * Math.min(l, 1 - l);
    const f = (n: number) => {
      const k = (n + h / 30) % 12;
      return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    };
    return `#${[f(0), f(8), f(4)]
      .map((v) =>
        Math.round(v * 255)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
  };
  for (let h = 0; h < 360; h += 15) {
    for (const l of [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95]) {
      for (const s of [0.3, 1]) colors.add(hsl(h, s, l));
    }
  }
  return [...colors];
}

describe('the brand palette', () => {
  it('keeps every text in a colour derived from the brand colour at 4.5:1 on its backgrounds, in both schemes', () => {
    const failures: string[] = [];
    const colors = sweep();
    expect(colors.length).toBeGreaterThan(300);
    for (const color of colors) {
      const shades = brandPalette(color);
      expect(shades, color).toHaveLength(10);
      for (const pair of textPairs(shades)) {
        const ratio = contrastRatio(pair.text, pair.background);
        if (ratio < 4.5) {
          failures.push(
            `${color}: ${pair.name} ${pair.text} on ${pair.background}: ${ratio.toFixed(2)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('keeps the organiser’s colour itself as shade 6, and the UI kit’s indigo by default', () => {
    expect(brandPalette('#E8590C')[6]).toBe('#e8590c');
    expect(brandPalette(DEFAULT_PRIMARY_COLOR)[6]).toBe(DEFAULT_PRIMARY_COLOR);
    expect(brandPalette(DEFAULT_PRIMARY_COLOR)[5]).toBe('#5c7cfa');
  });
});
