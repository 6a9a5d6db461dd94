import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

/** Every module of the chat app, with what it imports. */
async function chatImports(): Promise<{ file: string; target: string }[]> {
  const root = resolve('src/chat');
  const found: { file: string; target: string }[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/^\s*import[^'"]*['"]([^'"]+)['"]/gm)) {
      const target = match[1].startsWith('.') ? resolve(entry.parentPath, match[1]) : match[1];
      found.push({ file, target });
    }
  }
  return found;
}

test('the chat app is a client of the API only: it imports no engine, host or browser-host code', async () => {
  const imports = await chatImports();
  expect(imports.length).toBeGreaterThan(50);
  const root = resolve('src');
  const outside = imports.filter(({ target }) => target.startsWith(root) && !target.startsWith(join(root, 'chat')));
  expect(outside).toEqual([]);
});
