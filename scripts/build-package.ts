import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { scenarioSchema } from '../src/engine/scenario/scenario-schema.ts';
import { buildBrowserBundles } from './browser-bundles.ts';

/**
 * `npm run build:package` (run by `npm pack`): the package's compiled ESM, declarations and
 * source maps in lib/ (tsconfig.build.json), the browser files bundled in lib/browser/ (the
 * `offline-realm/browser` entry and the worker files `init` copies), the scenario format as JSON
 * Schema for editors, and the bin made executable.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const lib = `${root}lib`;

rmSync(lib, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
await buildBrowserBundles(root, `${lib}/browser`);
// The bundle's types are tsc's, of the source it was built from.
writeFileSync(`${lib}/browser/index.d.ts`, "export * from '../browser-host/page/start-realm.js';\n");

// `input`: what a file may say (defaults may be left out), not what the parser returns.
const schema = {
  title: 'Offline Realm scenario',
  ...z.toJSONSchema(scenarioSchema, { io: 'input', target: 'draft-2020-12' }),
};
writeFileSync(`${lib}/scenario.schema.json`, `${JSON.stringify(schema, null, 2)}\n`);
chmodSync(`${lib}/hosts/offline-realm-cli.js`, 0o755);
