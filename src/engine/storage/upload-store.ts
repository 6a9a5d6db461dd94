/**
 * Where uploaded files' bytes live, by their `path_id`; their metadata is the `attachments`
 * table. Hosts choose the medium (memory, a directory, IndexedDB blobs) and give it to the
 * engine like the clock. Writes happen outside the realm's transactions: IndexedDB commits a
 * transaction across any other await.
 */
export interface UploadStore {
  put(pathId: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  get(pathId: string): Promise<Uint8Array<ArrayBuffer> | null>;
  /** Deleting a missing file is not an error. */
  delete(pathId: string): Promise<void>;
  /** Deletes every file whose path is not in `keep`: the realm was replaced under the store. */
  retainOnly(keep: ReadonlySet<string>): Promise<void>;
}

/** The default store: files in memory, gone with the engine (tests, msw/node). */
export class MemoryUploadStore implements UploadStore {
  readonly #files = new Map<string, Uint8Array<ArrayBuffer>>();

  async put(pathId: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    this.#files.set(pathId, bytes.slice());
  }

  async get(pathId: string): Promise<Uint8Array<ArrayBuffer> | null> {
    return this.#files.get(pathId)?.slice() ?? null;
  }

  async delete(pathId: string): Promise<void> {
    this.#files.delete(pathId);
  }

  async retainOnly(keep: ReadonlySet<string>): Promise<void> {
    for (const pathId of this.#files.keys()) if (!keep.has(pathId)) this.#files.delete(pathId);
  }
}
