import type { DatabaseSync } from 'node:sqlite';
import type { DBCore, Middleware } from 'dexie';
import { prepareLayout } from './sqlite-layout.ts';
import { SqliteTable } from './sqlite-table.ts';
import { TransactionScheduler } from './sqlite-transaction.ts';
import { StatementCache } from './statement-cache.ts';

/**
 * Dexie's storage on a SQLite connection: a DBCore middleware at the very bottom of Dexie's stack
 * that answers every transaction and table operation itself and never calls the IndexedDB core
 * below it (which Dexie still opens, empty, for the schema). Everything above it (hooks, the
 * cache, virtual indexes, the engine) keeps speaking Dexie.
 */
export interface SqliteDBCore {
  readonly middleware: Middleware<DBCore>;
  readonly scheduler: TransactionScheduler;
}

export function sqliteDBCore(sqlite: DatabaseSync): SqliteDBCore {
  const scheduler = new TransactionScheduler(sqlite);
  const middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'SqliteDBCore',
    // Below Dexie's own layers (the lowest is -1), so they all run on top of this one.
    level: -1000,
    create: (down) => {
      prepareLayout(sqlite, down.schema);
      const statements = new StatementCache(sqlite);
      const tables = new Map(down.schema.tables.map((schema) => [schema.name, new SqliteTable(schema, statements)]));
      return {
        stack: 'dbcore',
        schema: down.schema,
        MIN_KEY: down.MIN_KEY,
        MAX_KEY: down.MAX_KEY,
        transaction: (stores, mode) => scheduler.create(stores, mode),
        table: (name) => {
          const table = tables.get(name);
          if (!table) throw new Error(`Table '${name}' not found`);
          return table;
        },
      };
    },
  };
  return { middleware, scheduler };
}
