import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../engine/engine.ts';
import { RealmDatabase } from '../engine/storage/database.ts';
import { parseServeArgs, type ServeOptions, USAGE, UsageError } from './cli-args.ts';
import { createNodeServer } from './node-http.ts';
import { DEFAULT_SCENARIO_PATH, loadScenarioFile, readCheckedScenario, ScenarioFileError } from './scenario-file.ts';
import { attachSqlite, openPersistentDatabase } from './sqlite-persistence.ts';
import { DiskUploadStore } from './disk-upload-store.ts';
import { replicaLinksText } from './replica-links.ts';
import { syncChangeJournal } from '../sync/hub/change-journal.ts';
import { SyncHub } from '../sync/hub/sync-hub.ts';

/** `offline-realm serve` (`npm run serve` here): the node-http host (runtime contract, section 2). */

const REALM_FILE = 'realm.sqlite';
/** Uploaded files' bytes, beside the realm (their metadata is in it). */
const UPLOADS_DIR = 'uploads';
/** How long a stopping server may take before the process exits anyway. */
const STOP_DEADLINE_MS = 5_000;

/** A start the user asked for but that would lose or mix up data; refused with exit code 2. */
class Refusal extends Error {}

interface OpenRealm {
  engine: Engine;
  close(): void;
}

export async function serve(args: string[]): Promise<void> {
  const options = parseServeArgs(args);
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  const appDir = options.app ? findBuiltApp(options.app.dir) : undefined;
  const realm = await openRealm(options);
  const host = await createNodeServer(realm.engine, { host: options.host, port: options.port, syncHub: new SyncHub(realm.engine), appDir }).catch((error: unknown) => {
    realm.close();
    throw error;
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Answers pending long-polls now instead of letting them hold the server open.
    realm.engine.queues.close();
    void host.close().then(() => realm.close());
    setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // First: whoever waits for this line may signal the process at once.
  process.stdout.write(`listening on ${host.url}\n`);
  if (appDir !== undefined) process.stdout.write(replicaLinksText(host.host, host.port));
}

/** The built app's directory: `--app-dir`, else this project's `dist/`; refused (exit 2) without its index.html. */
function findBuiltApp(dir: string | null): string {
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const found = dir === null ? fileURLToPath(new URL('../../dist', import.meta.url)) : resolve(cwd, dir);
  if (!existsSync(join(found, 'index.html'))) {
    throw new Refusal(`--app: no built app in ${found} (no index.html); run \`npm run build\` first${dir === null ? '' : ', or name its output with --app-dir'}`);
  }
  return found;
}

/**
 * The realm to serve. In memory, the scenario is loaded fresh. With --data, a directory that
 * already holds a realm is reopened unchanged; an explicit --scenario is then refused unless
 * --reset asks to replace the realm. Any scenario is proven loadable before the directory is
 * created or opened, so a faulty file writes nothing.
 */
async function openRealm(options: ServeOptions): Promise<OpenRealm> {
  // npm runs scripts from the package root; relative paths mean the caller's directory.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const scenarioPath = options.scenario === null ? DEFAULT_SCENARIO_PATH : resolve(cwd, options.scenario);

  if (options.data === null) {
    // The same store as --data, on an in-memory SQLite database: faster than fake-indexeddb
    // and outside the JS heap (docs/NODE-STORAGE.md).
    const db = new RealmDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    const store = await attachSqlite(db, new DatabaseSync(':memory:'));
    const engine = await Engine.create({ db, writeJournal: syncChangeJournal });
    const close = () => {
      engine.queues.close();
      store.close();
    };
    await loadScenarioFile(engine, scenarioPath).catch((error: unknown) => {
      close();
      throw error;
    });
    return { engine, close };
  }

  // An explicit scenario is checked even where it will be refused: a faulty file always exits 2.
  let scenario = options.scenario === null ? null : await readCheckedScenario(scenarioPath);
  const dir = resolve(cwd, options.data);
  const file = join(dir, REALM_FILE);
  if (scenario === null && !existsSync(file)) scenario = await readCheckedScenario(scenarioPath);
  // Owner only: the realm file in it holds API keys and password hashes.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const db = new RealmDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
  const store = await openPersistentDatabase(db, file);
  const uploads = await DiskUploadStore.open(join(dir, UPLOADS_DIR)).catch((error: unknown) => {
    store.close();
    throw error;
  });
  const engine = await Engine.create({ db, uploads, writeJournal: syncChangeJournal });
  const close = () => {
    engine.queues.close();
    store.close();
  };
  try {
    const hasRealm = (await engine.db.realm.get(1)) !== undefined;
    if (hasRealm && options.scenario !== null && !options.reset) {
      throw new Refusal(
        `${dir} already holds a realm; start without --scenario to reopen it, or add --reset to replace it with ${scenarioPath}`,
      );
    }
    if (!hasRealm || options.reset) {
      await loadScenarioFile(engine, scenarioPath, scenario ?? (await readCheckedScenario(scenarioPath)));
      process.stderr.write(`offline-realm: new realm from ${scenarioPath} stored in ${dir}\n`);
    } else {
      process.stderr.write(`offline-realm: reopened the realm stored in ${dir}\n`);
    }
  } catch (error) {
    close();
    throw error;
  }
  return { engine, close };
}

/** Prints why the command failed and sets the exit code: 2 for the caller's mistake, 1 otherwise. */
export function reportFailure(error: unknown): void {
  if (error instanceof UsageError) {
    process.stderr.write(`offline-realm: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else if (error instanceof ScenarioFileError || error instanceof Refusal) {
    process.stderr.write(`offline-realm: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`offline-realm: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
