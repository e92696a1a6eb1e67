import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import graph of `src` as TypeScript reads it (type-only imports and `import()` included,
 * tests left out): no file imports itself through others, and the server's folders import each
 * other one way only, so its layers stack (decision 204). ESLint's boundaries rules say which
 * layer may import which; this says that no chain of imports goes round.
 */

const SRC = path.resolve(import.meta.dirname);
const ROOT = path.dirname(SRC);

/**
 * Imports that close a circle, known and still to be taken out, each as [importer, imported]
 * (files; for the server's folders, folders). The graph without them has no circle, and each
 * must still be there: the list only shrinks.
 */
const KNOWN_FILE_IMPORTS: [string, string][] = [];
const KNOWN_FOLDER_IMPORTS: [string, string][] = [];

const isSource = (file: string) =>
  /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith('.d.ts');

/** Every source file under `src`, by its path from the repository's root. */
function sourceFiles(): string[] {
  return fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(SRC, file))
    .filter((file) => isSource(file) && fs.statSync(file).isFile())
    .map((file) => path.relative(ROOT, file).split(path.sep).join('/'));
}

/** Each file's imports of other files of `src` (relative specifiers: the code uses no other). */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(
      fs.readFileSync(path.join(ROOT, file), 'utf8'),
      true,
      true,
    );
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) =>
        path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)),
      )
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one node (Tarjan). */
function circlesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) circles.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/** The server's graph folder by folder: `src/server/memories`, or a file at its top (`app.ts`). */
function serverFolderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folderOf = (file: string) => file.split('/').slice(0, 3).join('/');
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    if (!file.startsWith('src/server/')) continue;
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from && target.startsWith('src/server/')) edges.add(to);
    }
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

/** The graph without the `known` imports, which must all be in it. */
function without(graph: Map<string, string[]>, known: [string, string][]): Map<string, string[]> {
  for (const [from, to] of known) expect(graph.get(from), `${from} -> ${to}`).toContain(to);
  return new Map(
    [...graph].map(([from, targets]) => [
      from,
      targets.filter((to) => !known.some(([a, b]) => a === from && b === to)),
    ]),
  );
}

describe('the import graph of src', () => {
  const graph = importGraph();

  it('reads the source files and their imports', () => {
    expect(graph.get('src/server/main.ts')).toContain('src/server/app.ts');
    // A type-only import is an edge too.
    expect(graph.get('src/server/db/connect.ts')).toContain('src/server/config.ts');
  });

  it('has no circle of files, type-only imports included', () => {
    expect(circlesOf(without(graph, KNOWN_FILE_IMPORTS))).toEqual([]);
  });

  it("has no circle of the server's folders: each imports those below it only", () => {
    expect(circlesOf(without(serverFolderGraph(graph), KNOWN_FOLDER_IMPORTS))).toEqual([]);
  });
});
