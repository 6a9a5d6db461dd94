// Imports /scenarios/demo.realm.json into fresh databases, timing `importRealm` alone (validation,
// derived columns, the one writing transaction), as the engine worker's realm loader runs it;
// then the parts: the archive's validation alone, and its user_messages rows written bare with
// the user_messages indexes before the place columns and now (bench/flag-row-layouts.ts).
import { Engine } from '../../src/engine/engine.ts';
import { importedUserMessages } from '../../src/engine/realm-archive/archive-user-messages.ts';
import { importRealm, type RealmArchive } from '../../src/engine/realm-archive/realm-archive.ts';
import { realmArchiveSchema } from '../../src/engine/realm-archive/realm-archive-schema.ts';
import { openFlagLayouts } from '../flag-row-layouts.ts';
import type { DemoImportSamples } from './import-page.ts';

const scope = self as unknown as { onmessage: ((event: MessageEvent<number>) => void) | null; postMessage(data: unknown): void };

async function measure(samples: number): Promise<DemoImportSamples> {
  const text = await (await fetch('/scenarios/demo.realm.json')).text();
  const result: DemoImportSamples = { imports: [], validation: [], flagRowsBefore: [], flagRowsNow: [], flagRows: 0 };
  for (let i = 0; i < samples; i++) {
    const name = `import-bench-${i}`;
    const engine = await Engine.create({ name, indexedDB, IDBKeyRange });
    const archive: unknown = JSON.parse(text);
    const start = performance.now();
    await importRealm(engine, archive);
    result.imports.push(performance.now() - start);
    engine.close();
    await deleted(name);
  }
  const archive = JSON.parse(text) as RealmArchive;
  const rows = importedUserMessages(archive.tables.user_messages, archive.tables.messages);
  result.flagRows = rows.length;
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    realmArchiveSchema.parse(JSON.parse(text));
    result.validation.push(performance.now() - start);
    const layouts = openFlagLayouts({ indexedDB, IDBKeyRange, name: `import-bench-rows-${i}` });
    result.flagRowsBefore.push(await layouts.writeRows('before', rows));
    result.flagRowsNow.push(await layouts.writeRows('now', rows));
    layouts.close();
    await deleted(`import-bench-rows-${i}-before`);
    await deleted(`import-bench-rows-${i}-now`);
  }
  return result;
}

const deleted = (name: string) => new Promise((resolve) => Object.assign(indexedDB.deleteDatabase(name), { onsuccess: resolve, onerror: resolve }));

scope.onmessage = ({ data: samples }) => {
  measure(samples).then(
    (result) => scope.postMessage(result),
    (error: unknown) => scope.postMessage({ error: String(error instanceof Error ? error.stack : error) }),
  );
};
