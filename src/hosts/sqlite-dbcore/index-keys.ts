import type { DBCoreIndex } from 'dexie';
import { encodeKey, isValidKey } from './key-codec.ts';

/**
 * The encoded key a row has in a (not multi-entry) index, or null when IndexedDB would leave the
 * row out of it: the key path's value is not a valid key (absent, null, a boolean...). This is
 * what makes the engine's sparse indexes sparse.
 */
export function indexKeyOf(index: DBCoreIndex, row: unknown): Uint8Array | null {
  const value: unknown = index.extractKey!(row);
  return isValidKey(value) ? encodeKey(value) : null;
}

/**
 * The encoded keys a row has in a multi-entry index: each valid, distinct element of an array
 * value (invalid elements are skipped), or the value itself when it is a valid key.
 */
export function multiEntryKeysOf(index: DBCoreIndex, row: unknown): Uint8Array[] {
  const value: unknown = index.extractKey!(row);
  if (!Array.isArray(value)) return isValidKey(value) ? [encodeKey(value)] : [];
  const keys = new Map<string, Uint8Array>();
  for (const item of value) {
    if (!isValidKey(item)) continue;
    const encoded = encodeKey(item);
    keys.set(Buffer.from(encoded).toString('latin1'), encoded);
  }
  return [...keys.values()];
}

export function dataError(message: string): DOMException {
  return new DOMException(message, 'DataError');
}
