import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** Prepared statements by their SQL text: queries are built from a few shapes, each prepared once. */
export class StatementCache {
  readonly #sqlite: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(sqlite: DatabaseSync) {
    this.#sqlite = sqlite;
  }

  get(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.#sqlite.prepare(sql)));
    return statement;
  }
}
