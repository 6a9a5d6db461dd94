import type { DBCore, DBCoreTransaction, Middleware } from 'dexie';
import type { CounterRow } from './rows.ts';

/** A counter row as last written, and the transaction that wrote it until that one commits. */
interface HeldCounter {
  row: CounterRow;
  writer: DBCoreTransaction | null;
}

/**
 * The `counters` rows held in memory as they are written, so `nextId`'s read of a counter is
 * answered without an IndexedDB request and handing out an id costs only its `put`, persisted
 * in the caller's transaction. A DBCore middleware (hooks would read every row before it is
 * written): every put is held; a row is answered to its own writer at once and to others once
 * that writer has committed (before that, their read goes to IndexedDB, which orders it after
 * the writer); an abort drops the rows its transaction wrote; a delete or clear drops them all.
 * Only for a database this connection alone writes (not `sharedStorage`): another engine's
 * writes would go unseen, and a held counter would hand out an id already taken.
 */
export function idCountersMiddleware(): Middleware<DBCore> {
  const held = new Map<string, HeldCounter>();
  const watched = new WeakSet<DBCoreTransaction>();

  const watch = (trans: DBCoreTransaction): void => {
    if (watched.has(trans)) return;
    watched.add(trans);
    const idbTrans = trans as unknown as IDBTransaction;
    idbTrans.addEventListener('complete', () => {
      for (const counter of held.values()) if (counter.writer === trans) counter.writer = null;
    });
    idbTrans.addEventListener('abort', () => {
      for (const [name, counter] of held) if (counter.writer === trans) held.delete(name);
    });
  };

  return {
    stack: 'dbcore',
    name: 'IdCounters',
    // Below Dexie's own layers, whose transaction objects are the IDBTransaction itself.
    level: -100,
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        if (name !== 'counters') return table;
        return {
          ...table,
          get: (req) => {
            const counter = typeof req.key === 'string' ? held.get(req.key) : undefined;
            if (counter && (counter.writer === null || counter.writer === req.trans)) return Promise.resolve({ ...counter.row });
            return table.get(req);
          },
          mutate: (req) => {
            if (req.type === 'put') {
              watch(req.trans);
              for (const row of req.values as CounterRow[]) held.set(row.name, { row: { ...row }, writer: req.trans });
            } else {
              held.clear();
            }
            return table.mutate(req);
          },
        };
      },
    }),
  };
}
