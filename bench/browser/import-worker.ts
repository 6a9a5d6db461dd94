// Imports /scenarios/demo.realm.json into fresh databases, timing `importRealm` alone (validation,
// derived columns, the one writing transaction), as the engine worker's realm loader runs it.
import { Engine } from '../../src/engine/engine.ts';
import { importRealm } from '../../src/engine/realm-archive/realm-archive.ts';

const scope = self as unknown as { onmessage: ((event: MessageEvent<number>) => void) | null; postMessage(data: unknown): void };

scope.onmessage = async ({ data: samples }) => {
  try {
    const text = await (await fetch('/scenarios/demo.realm.json')).text();
    const ms: number[] = [];
    for (let i = 0; i < samples; i++) {
      const name = `import-bench-${i}`;
      const engine = await Engine.create({ name, indexedDB, IDBKeyRange });
      const archive: unknown = JSON.parse(text);
      const start = performance.now();
      await importRealm(engine, archive);
      ms.push(performance.now() - start);
      engine.close();
      await new Promise((resolve) => Object.assign(indexedDB.deleteDatabase(name), { onsuccess: resolve, onerror: resolve }));
    }
    scope.postMessage({ ms });
  } catch (error) {
    scope.postMessage({ error: String(error instanceof Error ? error.stack : error) });
  }
};
