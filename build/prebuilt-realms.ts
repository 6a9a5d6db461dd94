import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Plugin, ResolvedConfig } from 'vite';

/** Beside each built scenario file `scenarios/NAME.json`: its realm, ready to import. */
export const PREBUILT_REALM_SUFFIX = '.realm.json';
const CLI = fileURLToPath(new URL('./prebuilt-realm-cli.ts', import.meta.url));

/**
 * Writes `scenarios/NAME.realm.json` (a realm archive) next to every scenario of the public
 * folder, so a browser's first visit imports the demo realm in one transaction instead of
 * replaying its messages through the send action (seconds in IndexedDB). Only scenarios whose
 * messages all carry their own timestamps: their realm does not depend on when it is loaded.
 */
export function prebuiltRealms(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'offline-realm:prebuilt-realms',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle() {
      if (!config.publicDir || !config.build.copyPublicDir) return;
      const folder = join(config.publicDir, 'scenarios');
      const names = (await readdir(folder).catch(() => [])).filter((name) => name.endsWith('.json') && !name.endsWith(PREBUILT_REALM_SUFFIX));
      for (const name of names.sort()) {
        const path = join(folder, name);
        if (!hasOwnTimestamps(JSON.parse(await readFile(path, 'utf8')))) continue;
        this.emitFile({ type: 'asset', fileName: `scenarios/${name.replace(/\.json$/, PREBUILT_REALM_SUFFIX)}`, source: await prebuiltRealm(path) });
      }
    },
  };
}

/** The realm archive (JSON text) that the scenario file at `path` makes, from a child process. */
export async function prebuiltRealm(path: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, path], { maxBuffer: 512 * 2 ** 20 });
  return stdout;
}

function hasOwnTimestamps(scenario: { messages?: { timestamp?: number }[] }): boolean {
  return (scenario.messages ?? []).every((message) => typeof message.timestamp === 'number');
}
