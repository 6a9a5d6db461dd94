import type { DBCoreIndex, DBCoreKeyRange } from 'dexie';
import { dataError } from './index-keys.ts';
import { encodeKey, isValidKey } from './key-codec.ts';
import { nameOf, type TableLayout } from './sqlite-layout.ts';

/** DBCoreRangeType (a const enum, which isolatedModules cannot import). */
const EQUAL = 1;
const ANY = 3;
const NEVER = 4;

/**
 * What a query walks, as SQL: the primary key, a plain index column or a multi-entry table, each
 * giving `ik` (the index key) and `pk` (the primary key) in IndexedDB's order (ik, then pk).
 */
export interface IndexSource {
  /** FROM clause; `values` joins the rows when the index is not the rows table itself. */
  from(values: boolean): string;
  ik: string;
  pk: string;
  /** For the primary key ik and pk are one column: conditions and ordering use it alone. */
  isPrimary: boolean;
  /** What every row of the index satisfies (a plain index leaves NULLs out). */
  present: string;
}

export function indexSource(layout: TableLayout, index: DBCoreIndex): IndexSource {
  if (index.isPrimaryKey) return { from: () => layout.rows, ik: 'k', pk: 'k', isPrimary: true, present: '1' };
  const column = layout.columns.get(nameOf(index));
  if (column !== undefined) {
    return { from: () => layout.rows, ik: column, pk: 'k', isPrimary: false, present: `${column} IS NOT NULL` };
  }
  const entries = layout.entries.get(nameOf(index));
  if (entries === undefined) throw new DOMException(`no index ${nameOf(index)}`, 'NotFoundError');
  return {
    from: (values) => (values ? `${entries} AS e JOIN ${layout.rows} ON ${layout.rows}.k = e.pk` : `${entries} AS e`),
    ik: 'e.ik',
    pk: 'e.pk',
    isPrimary: false,
    present: '1',
  };
}

export interface SqlCondition {
  sql: string;
  params: Uint8Array[];
}

/** A DBCore key range as a condition on `column` (the encoded keys compare as IndexedDB keys). */
export function rangeCondition(column: string, range: DBCoreKeyRange): SqlCondition {
  if (range.type === NEVER) return { sql: '0', params: [] };
  if (range.type === ANY) return { sql: '1', params: [] };
  if (range.type === EQUAL) return { sql: `${column} = ?`, params: [encodeBound(range.lower)] };
  const parts: string[] = [];
  const params: Uint8Array[] = [];
  const lower = range.lower === undefined ? undefined : encodeBound(range.lower);
  const upper = range.upper === undefined ? undefined : encodeBound(range.upper);
  if (lower && upper) {
    // IDBKeyRange.bound refuses these ranges rather than answer nothing.
    const order = Buffer.compare(lower, upper);
    if (order > 0 || (order === 0 && (range.lowerOpen || range.upperOpen))) throw dataError('the range is empty or inverted');
  }
  if (lower) {
    parts.push(`${column} ${range.lowerOpen ? '>' : '>='} ?`);
    params.push(lower);
  }
  if (upper) {
    parts.push(`${column} ${range.upperOpen ? '<' : '<='} ?`);
    params.push(upper);
  }
  return { sql: parts.length > 0 ? parts.join(' AND ') : '1', params };
}

export function encodeBound(key: unknown): Uint8Array {
  if (!isValidKey(key)) throw dataError('the range bound is not a valid key');
  return encodeKey(key);
}
