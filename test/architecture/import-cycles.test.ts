import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file's relative imports within src/, type-only ones included (a cycle of types still tangles the reading). */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const targets: string[] = [];
    const add = (specifier: string) => {
      const target = resolve(dirname(file), specifier);
      if (specifier.startsWith('.') && known.has(target)) targets.push(target);
    };
    const visit = (node: ts.Node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0])) {
        add(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(file, targets);
  }
  return graph;
}

/** The graph's cycles: its strongly connected components of more than one node (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

/** The same graph between folders: an edge wherever a file imports a file of another folder. */
function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = dirname(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) if (dirname(target) !== from) folders.get(from)!.add(dirname(target));
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]));
}

const named = (found: string[][]) => found.map((component) => component.map((path) => relative(SRC, path) || '.'));

describe('the import graph of src/', () => {
  const graph = importGraph(sourceFiles(SRC));

  test('has no cycle between files', () => {
    expect(named(cycles(graph))).toEqual([]);
  });

  test('has no cycle between folders', () => {
    expect(named(cycles(folderGraph(graph)))).toEqual([]);
  });
});
