import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_PRELOADS } from '../../shared/route-preloads.ts';

const CLIENT_DIR = path.join(import.meta.dirname, '..');
const router = fs.readFileSync(path.join(import.meta.dirname, 'router.tsx'), 'utf8');

/** The modules the router loads lazily, relative to src/client (the manifest's keys). */
const lazyModules = [...router.matchAll(/import\('(\.{1,2}\/[^']+)'\)/g)].map((match) =>
  path.relative(CLIENT_DIR, path.join(import.meta.dirname, match[1] ?? '')),
);

describe('route preloads', () => {
  it("name modules the router really imports, so the server's hints load the route's code", () => {
    const named = Object.values(ROUTE_PRELOADS).flatMap((route) => route.modules);
    expect(named.length).toBeGreaterThan(0);
    for (const module of named) expect(lazyModules).toContain(module);
  });
});
