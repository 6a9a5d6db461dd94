import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

/** What the Service Worker precaches: every file of the built app, versioned by their content. */
export interface AppShellManifest {
  /** Changes whenever any file of the shell changes: names the cache. */
  version: string;
  /** Site-absolute URLs, e.g. `/index.html`, `/assets/index-BOam9ssn.js`, `/scenarios/demo.json`. */
  urls: string[];
}

/** Imported by the Service Worker; `null` when served by `vite dev` (nothing to precache). */
export const APP_SHELL_MODULE = 'virtual:app-shell-manifest';
const RESOLVED_ID = `\0${APP_SHELL_MODULE}`;
/**
 * Stands for the manifest's JSON text in the built Service Worker until the whole bundle is
 * known. The string literal around it, in whatever quotes the minifier picked, is replaced.
 */
const PLACEHOLDER = '__OFFLINE_REALM_APP_SHELL_MANIFEST__';
const PLACEHOLDER_LITERAL = new RegExp(`(["'\`])${PLACEHOLDER}\\1`, 'g');

/**
 * Lists the built app (every chunk and asset, the worker bundles, the public files) in the
 * Service Worker chunk that imports {@link APP_SHELL_MODULE}. The Service Worker itself is
 * left out: the browser keeps its script and imports on its own.
 */
export function appShellManifest(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'offline-realm:app-shell-manifest',
    configResolved(resolved) {
      config = resolved;
    },
    resolveId: (id) => (id === APP_SHELL_MODULE ? RESOLVED_ID : undefined),
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      if (config.command === 'serve') return 'export const APP_SHELL = null;';
      return `export const APP_SHELL = JSON.parse(${JSON.stringify(PLACEHOLDER)});`;
    },
    generateBundle: {
      // After Vite's own plugins have added the worker bundles and the HTML.
      order: 'post',
      async handler(_options, bundle) {
        const outputs = Object.values(bundle);
        const serviceWorkers = outputs.filter((file) => file.type === 'chunk' && file.code.includes(PLACEHOLDER));
        if (serviceWorkers.length === 0) return;
        const [serviceWorker] = serviceWorkers;
        if (serviceWorkers.length > 1 || serviceWorker.type !== 'chunk' || serviceWorker.code.match(PLACEHOLDER_LITERAL)?.length !== 1) {
          throw new Error(`${APP_SHELL_MODULE}: expected the placeholder as one string literal in one chunk`);
        }
        const files = new Map<string, string | Uint8Array>();
        for (const file of outputs) {
          if (file === serviceWorker || file.fileName.endsWith('.map')) continue;
          files.set(file.fileName, file.type === 'chunk' ? file.code : file.source);
        }
        if (config.publicDir && config.build.copyPublicDir) {
          for (const [name, content] of await readPublicDir(config.publicDir)) files.set(name, content);
        }
        const manifest = shellManifest(config.base, files);
        // JSON text as a JSON string is a valid JavaScript string literal.
        const literal = JSON.stringify(JSON.stringify(manifest));
        serviceWorker.code = serviceWorker.code.replace(PLACEHOLDER_LITERAL, () => literal);
      },
    },
  };
}

function shellManifest(base: string, files: Map<string, string | Uint8Array>): AppShellManifest {
  const names = [...files.keys()].sort();
  const digest = createHash('sha256');
  for (const name of names) digest.update(name).update('\0').update(files.get(name) ?? '').update('\0');
  return { version: digest.digest('hex').slice(0, 16), urls: names.map((name) => `${base}${name}`) };
}

async function readPublicDir(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path).split(sep).join('/'), await readFile(path));
  }
  return files;
}

/**
 * {@link APP_SHELL_MODULE} as `null` in every build: for the package's Service Worker, which
 * runs in another project's site and caches none of it (scripts/browser-bundles.ts).
 */
export function noAppShell(): Plugin {
  return {
    name: 'offline-realm:no-app-shell',
    resolveId: (id) => (id === APP_SHELL_MODULE ? RESOLVED_ID : undefined),
    load: (id) => (id === RESOLVED_ID ? 'export const APP_SHELL = null;' : undefined),
  };
}
