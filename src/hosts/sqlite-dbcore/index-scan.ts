import type { DBCoreKeyRange } from 'dexie';
import { type IndexSource, rangeCondition } from './index-source.ts';
import type { StatementCache } from './statement-cache.ts';

/** One entry of an index walk: encoded index key, encoded primary key, the row's bytes if asked. */
export interface ScanRow {
  ik: Uint8Array;
  pk: Uint8Array;
  v?: string;
}

/**
 * Where a walk resumes: strictly after an entry, after every entry of a key, at a key, or at a
 * key and primary key (continuePrimaryKey). "After" follows the walk's direction.
 */
export type ScanStart =
  | { kind: 'after'; ik: Uint8Array; pk: Uint8Array }
  | { kind: 'afterKey'; ik: Uint8Array }
  | { kind: 'atKey'; ik: Uint8Array }
  | { kind: 'atEntry'; ik: Uint8Array; pk: Uint8Array };

export interface ScanRequest {
  source: IndexSource;
  range: DBCoreKeyRange;
  values: boolean;
  reverse: boolean;
  /** nextunique/prevunique order: within one key, primary keys ascend in both directions. */
  unique: boolean;
  start: ScanStart | null;
  /** Infinity for no limit */
  limit: number;
}

/** One walk of an index in IndexedDB's order, as a single SELECT. */
export function scanIndex(statements: StatementCache, request: ScanRequest): ScanRow[] {
  const { source, reverse, unique } = request;
  const range = rangeCondition(source.ik, request.range);
  const conditions = [source.present, range.sql];
  const params: (Uint8Array | number)[] = [...range.params];
  if (request.start) {
    const { sql, params: startParams } = startCondition(source, request.start, reverse);
    conditions.push(sql);
    params.push(...startParams);
  }
  const keyOrder = reverse ? 'DESC' : 'ASC';
  const pkOrder = reverse && !unique ? 'DESC' : 'ASC';
  const order = source.isPrimary ? `${source.ik} ${keyOrder}` : `${source.ik} ${keyOrder}, ${source.pk} ${pkOrder}`;
  const sql =
    `SELECT ${source.ik} AS ik, ${source.pk} AS pk${request.values ? ', v' : ''} FROM ${source.from(request.values)}` +
    ` WHERE ${conditions.join(' AND ')} ORDER BY ${order} LIMIT ?`;
  params.push(request.limit === Infinity ? -1 : request.limit);
  return statements.get(sql).all(...params) as unknown as ScanRow[];
}

function startCondition(source: IndexSource, start: ScanStart, reverse: boolean): { sql: string; params: Uint8Array[] } {
  const strictly = reverse ? '<' : '>';
  const from = reverse ? '<=' : '>=';
  switch (start.kind) {
    case 'afterKey':
      return { sql: `${source.ik} ${strictly} ?`, params: [start.ik] };
    case 'atKey':
      return { sql: `${source.ik} ${from} ?`, params: [start.ik] };
    case 'after':
      return source.isPrimary
        ? { sql: `${source.ik} ${strictly} ?`, params: [start.ik] }
        : { sql: `(${source.ik}, ${source.pk}) ${strictly} (?, ?)`, params: [start.ik, start.pk] };
    case 'atEntry':
      return source.isPrimary
        ? { sql: `${source.ik} ${from} ?`, params: [start.ik] }
        : { sql: `(${source.ik}, ${source.pk}) ${from} (?, ?)`, params: [start.ik, start.pk] };
  }
}
