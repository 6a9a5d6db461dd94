import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WORKER_FILES } from '../browser-host/protocol/worker-files.ts';

/** lib/browser/ of the package: two levels up from this file, as source (src/hosts) or built (lib/hosts). */
const BUILT_FILES = new URL('../../lib/browser/', import.meta.url);

/** A failure of `init` that the user can fix; its message says how. */
export class InitError extends Error {}

/**
 * `offline-realm init DIR`: copies the Service Worker and the engine worker into DIR (created
 * if need be), the folder a project serves at its site root, as `npx msw init` does; a page
 * then starts the server with `startRealm` from `offline-realm/browser`. Prints what it wrote.
 */
export async function init(dir: string, cwd: string): Promise<void> {
  const target = resolve(cwd, dir);
  await mkdir(target, { recursive: true });
  for (const file of WORKER_FILES) {
    const source = new URL(file, BUILT_FILES);
    if (!(await isFile(source))) throw new InitError(`${source.pathname} is not built yet (npm run build:package)`);
    await copyFile(source, join(target, file));
    process.stdout.write(`wrote ${join(dir, file)}\n`);
  }
  process.stdout.write(
    `\nServed at your site's root, they let a page start the server:\n` +
      `  import { startRealm } from 'offline-realm/browser';\n` +
      `  await startRealm({ scenario: '/my-realm.json', serviceWorkerUrl: '/${WORKER_FILES[0]}' });\n`,
  );
}

async function isFile(url: URL): Promise<boolean> {
  try {
    return (await stat(url)).isFile();
  } catch {
    return false;
  }
}
