import { describe, expect, it } from 'vitest';
import { CriticalStyles, classesIn, criticalCss } from './critical-css.ts';

const SHEET = [
  ':root{--gap:4px}',
  'body{margin:0}',
  '.card{padding:1px}',
  '.modal{position:fixed}',
  '.card .title,.modal .title{font-weight:700}',
  '.card:hover{color:red}',
  ':where(.card,.modal) img{width:100%}',
  '.card:not(.hidden){display:block}',
  '[data-mantine-color-scheme=dark] .card{background:#000}',
  '@media (min-width:48em){.card{padding:2px}.modal{inset:0}}',
  '@media print{.modal{display:none}}',
  '@layer app{@media (min-width:1px){.modal{top:0}}}',
  '@keyframes spin{from{transform:rotate(0)}to{transform:rotate(1turn)}}',
].join('');

describe('critical CSS', () => {
  it('keeps what the classes on the page can match, and every rule that needs no class', () => {
    const css = criticalCss(SHEET, new Set(['card', 'title']));
    expect(css).toBe(
      [
        ':root{--gap:4px}',
        'body{margin:0}',
        '.card{padding:1px}',
        '.card .title{font-weight:700}',
        '.card:hover{color:red}',
        ':where(.card,.modal) img{width:100%}',
        '.card:not(.hidden){display:block}',
        '[data-mantine-color-scheme=dark] .card{background:#000}',
        '@media (min-width:48em){.card{padding:2px}}',
        '@keyframes spin{from{transform:rotate(0)}to{transform:rotate(1turn)}}',
      ].join(''),
    );
  });

  it('reads the class names of the markup', () => {
    expect([
      ...classesIn('<div class="a  b"><p class="c"></p><i data-class="d"></i></div>'),
    ]).toEqual(['a', 'b', 'c']);
  });

  it('cuts each inlined sheet of a page and names the whole one', () => {
    const page = `<head><style data-href="/assets/x.css">${SHEET}</style><style id="brand">.modal{color:blue}</style></head><body><div class="card"></div></body>`;
    const cut = new CriticalStyles().cut(page);
    expect(cut).toContain(
      '<style data-full="/assets/x.css">:root{--gap:4px}body{margin:0}.card{padding:1px}',
    );
    expect(cut).not.toContain('.modal{position:fixed}');
    // Only the sheets inlined from the build are cut.
    expect(cut).toContain('<style id="brand">.modal{color:blue}</style>');
  });
});
