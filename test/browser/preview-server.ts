import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { preview } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the built app served by `vite preview`, e.g. http://127.0.0.1:41234 */
    appOrigin: string;
    /** The build itself, for a Node host that serves it (`serve --app`). */
    appDir: string;
  }
}

/**
 * Builds the app as `npm start` does and serves it with `vite preview` for the browser tests:
 * a dev server could reload pages mid-test (dependency optimisation) and serves the workers
 * differently from production.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), 'offline-realm-app-'));
  // A separate process: the build must see NODE_ENV=production, this one runs with "test".
  await promisify(execFile)('node_modules/.bin/vite', ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const server = await preview({
    configFile: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0 },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  project.provide('appOrigin', `http://127.0.0.1:${port}`);
  project.provide('appDir', outDir);
  return async () => {
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  };
}
