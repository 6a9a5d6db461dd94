import { randomUUID } from 'node:crypto';
import { chmod, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { UploadStore } from '../engine/storage/upload-store.ts';

/** The directories of a path_id that name one upload: realm, 2 hex, the 24 random characters. */
const KEY = /^([0-9]{1,9})\/([0-9a-f]{2})\/([A-Za-z0-9_-]{24})\//;

/**
 * `--data DIR`'s uploads: each file at `DIR/uploads/{realm}/{2 hex}/{random}`, owner-only
 * (directories 0700, files 0600). The path's random segment is unique per upload, so the file
 * name drops the sanitized name: no name length or script can break the disk layout. A file is
 * written under a temporary name, flushed and renamed, so a crash never leaves half a file
 * under an upload's name.
 */
export class DiskUploadStore implements UploadStore {
  readonly #root: string;

  private constructor(root: string) {
    this.#root = root;
  }

  static async open(root: string): Promise<DiskUploadStore> {
    await mkdir(root, { recursive: true, mode: 0o700 });
    // mkdir leaves an existing directory's mode alone.
    await chmod(root, 0o700);
    return new DiskUploadStore(root);
  }

  async put(pathId: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    const [realm, hex, random] = keyOf(pathId);
    const dir = join(this.#root, realm, hex);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temporary = join(dir, `.${random}.${randomUUID()}.part`);
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, join(dir, random));
  }

  async get(pathId: string): Promise<Uint8Array<ArrayBuffer> | null> {
    try {
      const data = await readFile(join(this.#root, ...keyOf(pathId)));
      return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(pathId: string): Promise<void> {
    await rm(join(this.#root, ...keyOf(pathId)), { force: true });
  }

  async retainOnly(keep: ReadonlySet<string>): Promise<void> {
    const kept = new Set([...keep].map((pathId) => keyOf(pathId).join('/')));
    for (const realm of await readdir(this.#root)) {
      for (const hex of await readdir(join(this.#root, realm)).catch(() => [])) {
        for (const name of await readdir(join(this.#root, realm, hex)).catch(() => [])) {
          if (!kept.has(`${realm}/${hex}/${name}`)) await rm(join(this.#root, realm, hex, name), { force: true });
        }
      }
    }
  }
}

/** The three directory levels of a path_id; anything else never reaches the disk. */
function keyOf(pathId: string): [string, string, string] {
  const match = KEY.exec(pathId);
  if (!match) throw new Error(`not an upload path: ${pathId}`);
  return [match[1], match[2], match[3]];
}
