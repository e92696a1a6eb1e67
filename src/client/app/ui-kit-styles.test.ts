import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const clientDir = path.join(root, 'src', 'client');
const mantine = (...parts: string[]) => path.join(root, 'node_modules', '@mantine', ...parts);

const walk = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );

/** Value names imported from `@mantine/core` by a source file. */
function coreImports(source: string): string[] {
  return [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']@mantine\/core["']/g)].flatMap(
    (match) =>
      (match[1] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => /^[A-Z]/.test(name)),
  );
}

/**
 * The parts of imported components a source file renders as `<Radio.Card>`: Mantine styles some
 * of them on their own (`RadioCard`), so importing `Radio` does not say they are needed.
 */
function coreParts(source: string): string[] {
  const names = new Set(coreImports(source));
  return [...source.matchAll(/<([A-Z]\w*)\.([A-Z]\w*)/g)]
    .filter((match) => names.has(match[1] ?? ''))
    .map((match) => `${match[1] ?? ''}${match[2] ?? ''}`)
    .filter((name) => hasStyles(name));
}

/** A component of @mantine/core with styles of its own: `styles/<Name>.css` exists. */
const hasStyles = (name: string) => fs.existsSync(mantine('core', 'styles', `${name}.css`));

/** The styled components a component is built from, itself included (its module graph). */
function styledParts(component: string): Set<string> {
  const components = mantine('core', 'esm', 'components');
  const parts = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !fs.existsSync(file)) return;
    seen.add(file);
    const relative = path.relative(components, file);
    const dir = relative.split(path.sep)[0] ?? '';
    if (!relative.startsWith('..') && hasStyles(dir)) parts.add(dir);
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(/from\s+"(\.[^"]+)"/g)) {
      visit(path.resolve(path.dirname(file), match[1] ?? ''));
    }
  };
  // A part styled on its own (RadioCard) lives in its component's folder (Radio/RadioCard).
  const own = path.join(components, component, `${component}.mjs`);
  const nested = fs
    .readdirSync(components)
    .map((dir) => path.join(components, dir, component, `${component}.mjs`))
    .find((file) => fs.existsSync(file));
  const entry = fs.existsSync(own) ? own : nested;
  if (entry) visit(entry);
  if (hasStyles(component)) parts.add(component);
  return parts;
}

const sources = walk(clientDir).filter(
  (file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'),
);

/** Per-component stylesheets imported by a source file, in order. */
const styleImports = (file: string) =>
  [
    ...fs
      .readFileSync(file, 'utf8')
      .matchAll(/import\s+'@mantine\/core\/styles\/([\w-]+)\.layer\.css'/g),
  ].map((match) => match[1] ?? '');

/** Each stylesheet's place in Mantine's own styles.css, the order that keeps overrides right. */
const bundle = fs.readFileSync(mantine('core', 'styles.css'), 'utf8');
const place = (name: string) =>
  bundle.indexOf(fs.readFileSync(mantine('core', 'styles', `${name}.css`), 'utf8').trim());

const imported = new Set(sources.flatMap(styleImports));

describe('Mantine styles imported per component', () => {
  it('covers every component the client renders and every component those are built from', () => {
    const used = new Set(
      sources.flatMap((file) => {
        const source = fs.readFileSync(file, 'utf8');
        return [...coreImports(source), ...coreParts(source)];
      }),
    );
    // The toasts and the dropzone come from their own packages, built on core components.
    for (const pkg of ['notifications', 'dropzone']) {
      for (const file of walk(mantine(pkg, 'esm')).filter((f) => f.endsWith('.mjs'))) {
        for (const name of coreImports(fs.readFileSync(file, 'utf8'))) used.add(name);
      }
    }
    const needed = new Set([...used].flatMap((name) => [...styledParts(name)]));
    expect(needed.size).toBeGreaterThan(10);
    const missing = [...needed].filter((name) => !imported.has(name)).sort();
    expect(missing, 'add to app/ui-kit-styles.ts or app/ui-kit-screen-styles.ts').toEqual([]);
  });

  it('imports each stylesheet once, in the order of styles.css, after the global styles', () => {
    const all = sources.flatMap(styleImports);
    expect(all.length).toBe(new Set(all).size);
    for (const file of sources) {
      const names = styleImports(file).filter(hasStyles);
      const places = names.map(place);
      expect(places.every((at) => at >= 0)).toBe(true);
      expect(places, path.relative(root, file)).toEqual([...places].sort((a, b) => a - b));
    }
    expect(styleImports(path.join(clientDir, 'app', 'ui-kit-styles.ts')).slice(0, 3)).toEqual([
      'baseline',
      'default-css-variables',
      'global',
    ]);
  });

  it("imports Mantine's styles in its cascade layer, so the app's own rules win in any file order", () => {
    // The screens share a chunk whose stylesheet can come before the one with Mantine's
    // component styles (decision 093): unlayered app rules beat layered ones whatever the order.
    const imports = sources.flatMap((file) => [
      ...fs.readFileSync(file, 'utf8').matchAll(/import\s+'(@mantine\/[^']+\.css)'/g),
    ]);
    expect(imports.length).toBeGreaterThan(10);
    for (const [statement, specifier] of imports) {
      expect(specifier, statement).toMatch(/\.layer\.css$/);
    }
  });

  it('has the styles of the first screen of any address in the entry (ui-kit-styles.ts)', () => {
    const entry = new Set(styleImports(path.join(clientDir, 'app', 'ui-kit-styles.ts')));
    const firstScreen = sources.filter((file) => {
      const relative = path.relative(clientDir, file);
      return (
        relative.startsWith(path.join('features', 'join')) ||
        (relative.startsWith(path.join('app', 'layout')) && !relative.endsWith('toasts.tsx')) ||
        relative === path.join('app', 'router.tsx') ||
        relative === 'main.tsx'
      );
    });
    const needed = new Set(
      firstScreen.flatMap((file) =>
        coreImports(fs.readFileSync(file, 'utf8')).flatMap((name) => [...styledParts(name)]),
      ),
    );
    expect([...needed].filter((name) => !entry.has(name)).sort()).toEqual([]);
  });
});
