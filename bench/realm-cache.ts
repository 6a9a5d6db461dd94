// The bench realm (bench/realm-fixture.ts) as a SQLite file, built once per size and kept between
// runs: 1M messages take minutes to build on 2 cores, and opening the file takes a second. The
// scale curves (bench/scale.ts) and bench/node-store.ts's file store both measure on a copy of it.
// A file is reused only while the sources that decide its bytes are unchanged (the fixture, the
// scenario loader, the storage schema and rows, the SQLite store, the Node version): any edit to
// one of them builds it again. `--rebuild-realms` builds it again regardless.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../src/engine/engine.ts';
import { RealmDatabase } from '../src/engine/storage/database.ts';
import { attachSqlite, openPersistentDatabase, type PersistentStore } from '../src/hosts/sqlite-persistence.ts';
import { type BenchRealm, buildBenchRealm } from './realm-fixture.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(tmpdir(), 'offline-realm-bench-realms');
const STALE_AFTER_MS = 30 * 60_000;
/** Files and folders (every .ts file under them) whose content decides the realm file's bytes. */
const SOURCES = [
  'bench/realm-fixture.ts',
  'src/engine/scenario',
  'src/engine/storage',
  'src/engine/validation/message-limits.ts',
  'src/hosts/sqlite-dbcore',
  'src/hosts/sqlite-persistence.ts',
];

export interface CachedRealm {
  /** The built file; never opened for writing (measure on `openCopy`). */
  file: string;
  realm: BenchRealm;
  /** How long building it took, when it was built. */
  buildSeconds: number;
  /** Whether this call built it (false: an earlier run's file was reused). */
  built: boolean;
}

/** The realm of `size` messages as a SQLite file, from the cache or built now. */
export async function cachedRealm(size: number, options: { rebuild?: boolean } = {}): Promise<CachedRealm> {
  const dir = join(CACHE, sourcesKey());
  const file = join(dir, `realm-${size}.sqlite`);
  const descriptor = join(dir, `realm-${size}.json`);
  if (!options.rebuild && existsSync(descriptor) && existsSync(file)) {
    markUsed(dir);
    const { realm, buildSeconds } = JSON.parse(readFileSync(descriptor, 'utf8')) as { realm: BenchRealm; buildSeconds: number };
    return { file, realm, buildSeconds, built: false };
  }
  mkdirSync(dir, { recursive: true });
  markUsed(dir);
  removeStaleBuilds(dir);
  // Built under a name of its own, then renamed: a build cut short, or another bench building
  // the same size at the same time, never leaves a half-built file under the final name.
  const building = `${file}.${process.pid}.building`;
  rmSync(building, { force: true });
  const { realm, buildSeconds } = await build(building, size);
  renameSync(building, file);
  writeFileSync(descriptor, JSON.stringify({ realm, buildSeconds }));
  return { file, realm, buildSeconds, built: true };
}

export interface OpenRealm {
  engine: Engine;
  store: PersistentStore;
  /** Size of the copy's database file in bytes, as opened. */
  fileBytes: number;
  /** Copying the cached file (not part of the realm's figures: a server opens its file in place). */
  copyMs: number;
  /** Opening the copy as `serve --data` does and creating the engine on it. */
  openMs: number;
}

/**
 * A copy of the cached file at `target`, opened as `offline-realm serve --data` opens its file
 * (WAL, `synchronous = FULL`): the bench's sends write to the copy, so the cached file stays as built.
 * `beforeOpen` installs middleware (Dexie's `use`) before the database opens.
 */
export async function openCopy(cached: CachedRealm, target: string, beforeOpen: (db: RealmDatabase) => void = () => {}): Promise<OpenRealm> {
  const copyStart = performance.now();
  copyFileSync(cached.file, target);
  const openStart = performance.now();
  const db = new RealmDatabase({ name: 'bench', indexedDB: new IDBFactory(), IDBKeyRange });
  beforeOpen(db);
  const store = await openPersistentDatabase(db, target);
  const engine = await Engine.create({ db });
  return { engine, store, fileBytes: statSync(target).size, copyMs: openStart - copyStart, openMs: performance.now() - openStart };
}

/**
 * Bulk rows through Dexie in 10k-row chunks (realm-fixture.ts) on a connection set for loading:
 * the rollback journal in memory and no fsync (a build cut short is thrown away), and a large
 * page cache. (node:sqlite's defensive mode refuses `journal_mode = OFF`.)
 */
async function build(path: string, size: number): Promise<{ realm: BenchRealm; buildSeconds: number }> {
  const sqlite = new DatabaseSync(path);
  sqlite.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144');
  const db = new RealmDatabase({ name: 'bench-build', indexedDB: new IDBFactory(), IDBKeyRange });
  const store = await attachSqlite(db, sqlite);
  try {
    const engine = await Engine.create({ db });
    const started = performance.now();
    const realm = await buildBenchRealm(engine, size);
    const buildSeconds = (performance.now() - started) / 1000;
    engine.queues.close();
    engine.scheduler.stop();
    return { realm, buildSeconds };
  } finally {
    store.close();
  }
}

/** Builds from other sources unused for a while go (each 1M file is a few GiB); a bench of another checkout may still be copying a recent one. */
function removeStaleBuilds(current: string): void {
  const staleBefore = Date.now() - STALE_AFTER_MS;
  for (const entry of readdirSync(CACHE)) {
    const dir = join(CACHE, entry);
    if (dir !== current && statSync(dir).mtimeMs < staleBefore) rmSync(dir, { recursive: true, force: true });
  }
}

function markUsed(dir: string): void {
  const now = new Date();
  utimesSync(dir, now, now);
}

function sourcesKey(): string {
  const hash = createHash('sha256').update(`node ${process.version} sqlite ${process.versions.sqlite ?? ''}\n`);
  for (const file of SOURCES.flatMap((source) => tsFiles(join(ROOT, source))).sort()) {
    hash.update(`${relative(ROOT, file)}\n`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

function tsFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(path, name));
}
