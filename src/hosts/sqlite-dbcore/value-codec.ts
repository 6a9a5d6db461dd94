import { deserialize, serialize } from 'node:v8';

/**
 * Rows as V8's structured-clone bytes: what IndexedDB itself stores, so a row reads back exactly
 * as it was put (undefined fields, Dates, typed arrays), unlike JSON.
 */
export const encodeValue = (row: unknown): Uint8Array => serialize(row);

export const decodeValue = (bytes: Uint8Array): unknown => deserialize(bytes);
