import { Dexie, type Table } from 'dexie';
import type { UploadStore } from '../../engine/storage/upload-store.ts';
import { withoutLiveQueries } from '../../engine/storage/without-live-queries.ts';

interface StoredFile {
  path_id: string;
  blob: Blob;
}

/**
 * The browser's uploads: each file a Blob in its own IndexedDB database, apart from the realm's
 * (whose rows go into the JSON realm archive; these bytes do not).
 */
export class IndexedDbUploadStore implements UploadStore {
  readonly #files: Table<StoredFile, string>;

  constructor(indexedDB: IDBFactory, keyRange: typeof IDBKeyRange, name = 'offline-realm-uploads') {
    const db = withoutLiveQueries(new Dexie(name, { indexedDB, IDBKeyRange: keyRange }));
    db.version(1).stores({ files: 'path_id' });
    this.#files = db.table('files');
  }

  async put(pathId: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    await this.#files.put({ path_id: pathId, blob: new Blob([bytes]) });
  }

  async get(pathId: string): Promise<Uint8Array<ArrayBuffer> | null> {
    const file = await this.#files.get(pathId);
    return file ? new Uint8Array(await file.blob.arrayBuffer()) : null;
  }

  async delete(pathId: string): Promise<void> {
    await this.#files.delete(pathId);
  }

  async retainOnly(keep: ReadonlySet<string>): Promise<void> {
    const stale = (await this.#files.toCollection().primaryKeys()).filter((pathId) => !keep.has(pathId));
    await this.#files.bulkDelete(stale);
  }
}
