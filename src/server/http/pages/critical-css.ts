import postcss from 'postcss';

/**
 * The class names a selector needs on the page to match anything: those outside parentheses
 * (`:is(.a, .b)`, `:not(.c)` and the like need none of theirs, which keeps such rules).
 */
function requiredClasses(selector: string): string[] {
  let depth = 0;
  let outside = '';
  for (const char of selector) {
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (depth === 0) outside += char;
  }
  return [...outside.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1] ?? '');
}

/** The class names used in a piece of HTML. */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const [, names = ''] of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of names.split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}

/**
 * A stylesheet with only the rules that can match a page using `classes`: a rule stays when one
 * of its selectors needs no class the page lacks; rules without classes (`:root`, elements,
 * attributes), keyframes and font faces all stay. What a page shows before its code runs is
 * drawn as with the whole sheet; the whole sheet follows after the first paint (decision 185).
 */
export function criticalCss(css: string, classes: ReadonlySet<string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    if (
      rule.parent?.type === 'atrule' &&
      /keyframes$/i.test((rule.parent as postcss.AtRule).name)
    ) {
      return;
    }
    const kept = rule.selectors.filter((selector) =>
      requiredClasses(selector).every((name) => classes.has(name)),
    );
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  // Blocks left empty (a media query, a layer) go too, innermost first.
  const blocks: postcss.AtRule[] = [];
  root.walkAtRules((atRule) => {
    blocks.push(atRule);
  });
  for (const block of blocks.reverse()) if (block.nodes?.length === 0) block.remove();
  return root.toString();
}

/** Cuts pages' inlined stylesheets; one per app (its client), keeping the sheets it made. */
export class CriticalStyles {
  /** Critical sheets made, by sheet and class set: a screen's classes change little with its data. */
  readonly #made = new Map<string, string>();

  /**
   * The page with each inlined stylesheet (`<style data-href>`, from `withInlineStyles`) cut to
   * what the page's markup uses, marked `data-full` with the sheet's address: the page's loader
   * (`after-paint.js`) links the whole sheet after the first paint, before the code runs.
   */
  cut(page: string): string {
    const classes = classesIn(page);
    const key = [...classes].sort().join(' ');
    return page.replace(
      /<style data-href="([^"]+)">([^<]*(?:<(?!\/style>)[^<]*)*)<\/style>/g,
      (_style, href: string, css: string) => {
        const id = `${href}\n${key}`;
        let critical = this.#made.get(id);
        if (critical === undefined) {
          critical = criticalCss(css, classes);
          if (this.#made.size >= 64) this.#made.clear();
          this.#made.set(id, critical);
        }
        return `<style data-full="${href}">${critical}</style>`;
      },
    );
  }
}
