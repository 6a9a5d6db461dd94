import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeKey, encodeKey, type IdbKey, isValidKey } from '../../src/hosts/sqlite-dbcore/key-codec.ts';

/** IndexedDB's own comparison, from fake-indexeddb: the oracle. */
const idb = new IDBFactory();

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const { key } = fc.letrec<{ key: IdbKey }>((tie) => ({
  key: fc.oneof(
    { depthSize: 'small' },
    fc.double({ noNaN: true }),
    fc.integer({ min: -5, max: 5 }),
    fc.date({ noInvalidDate: true }),
    fc.string({ unit: codeUnit, maxLength: 6 }),
    fc.string({ unit: fc.constantFrom('a', 'b', '\u0000', '\u007e', '\u007f', '\u407e', '\u407f', '\uffff'), maxLength: 4 }),
    fc.uint8Array({ maxLength: 5 }).map((bytes) => bytes.buffer as ArrayBuffer),
    fc.array(tie('key'), { maxLength: 4 }),
  ),
}));

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe('SQLite key encoding', () => {
  it('orders any two keys as IndexedDB does', () => {
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(sign(Buffer.compare(encodeKey(a), encodeKey(b)))).toBe(idb.cmp(a, b));
      }),
      { numRuns: 5000 },
    );
  });

  it('decodes every key to one IndexedDB holds equal to it', () => {
    fc.assert(
      fc.property(key, (a) => {
        expect(idb.cmp(decodeKey(encodeKey(a)), a)).toBe(0);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives -0 and 0 the same bytes, and Dexie’s minKey and maxKey the ends of the order', () => {
    expect(encodeKey(-0)).toEqual(encodeKey(0));
    expect(Buffer.compare(encodeKey(-Infinity), encodeKey(-Number.MAX_VALUE))).toBe(-1);
    expect(Buffer.compare(encodeKey([[]]), encodeKey(['\uffff\uffff', [], 1]))).toBe(1);
  });

  it('accepts as keys exactly what IndexedDB accepts', () => {
    const candidates: unknown[] = [1, NaN, 'x', true, null, undefined, {}, new Date(NaN), new Date(0), [1, [2]], [1, undefined], [1, , 2], [NaN]];
    const selfNested: unknown[] = [];
    selfNested.push(selfNested);
    candidates.push(selfNested);
    for (const candidate of candidates) {
      let accepted = true;
      try {
        idb.cmp(candidate, 0);
      } catch {
        accepted = false;
      }
      expect([candidate, isValidKey(candidate)]).toEqual([candidate, accepted]);
    }
  });
});
