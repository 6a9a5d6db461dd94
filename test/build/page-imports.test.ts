import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

/** Every source module a page loads (value imports followed; `import type` is erased). */
async function loadedModules(entry: string): Promise<string[]> {
  const seen = new Set<string>();
  const pending = [resolve(entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/^\s*import\s+(?!type\b)[^'"]*?['"](\.[^'"]+)['"]/gm)) {
      pending.push(resolve(dirname(file), match[1]));
    }
  }
  return [...seen].map((file) => relative(resolve('.'), file)).sort();
}

// The engine runs in its worker; a page that imported engine code would parse it (and build its
// schemas) on every load. A value import of one constant once pulled zod and two schemas in.
test.each(['src/pages/chat-page.tsx', 'src/console/main.ts'])('the page %s loads no engine code', async (entry) => {
  const modules = await loadedModules(entry);

  expect(modules.length).toBeGreaterThan(5);
  expect(modules.filter((file) => file.startsWith('src/engine/'))).toEqual([]);
});
