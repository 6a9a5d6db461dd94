// Builds the app with `vite build` and serves it with `vite preview`, as
// test/browser/preview-server.ts does for the browser tests.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { preview } from 'vite';

export interface ServedBuild {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** Where the build was written (for its file sizes). */
  outDir: string;
  close(): Promise<void>;
}

export interface BuildOptions {
  /** The app's vite.config.ts when omitted. */
  configFile?: string;
  /** Added to every response of the preview server. */
  headers?: Record<string, string>;
}

export async function serveBuild({ configFile, headers }: BuildOptions = {}): Promise<ServedBuild> {
  const outDir = await mkdtemp(join(tmpdir(), 'offline-realm-bench-build-'));
  const config = configFile ? ['--config', configFile] : [];
  // A separate process, so the build sees NODE_ENV=production whatever this one runs with.
  await promisify(execFile)('node_modules/.bin/vite', ['build', ...config, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const server = await preview({
    configFile: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, headers },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    outDir,
    close: async () => {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
