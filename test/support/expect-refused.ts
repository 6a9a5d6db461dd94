import { expect } from 'vitest';
import { type ApiResult, openQueue, type TestRealm } from './test-realm.ts';

/** Every row of every table: what a refused request must leave exactly as it was. */
async function everyTable(realm: TestRealm): Promise<Record<string, unknown[]>> {
  const { db } = realm.engine;
  return db.transaction('r', db.tables, async (tx) =>
    Object.fromEntries(await Promise.all(db.tables.map(async (table) => [table.name, await tx.table(table.name).toArray()] as const))),
  );
}

/**
 * Sends a request that must be refused and checks the whole refusal: its status and error
 * body, no row changed in any table, and no event for anyone (a queue per user watches).
 */
export async function expectRefused(
  realm: TestRealm,
  send: () => Promise<ApiResult>,
  expected: Record<string, unknown>,
  status = 400,
): Promise<void> {
  const before = await everyTable(realm);
  const watchers = (await realm.engine.db.users.toArray()).map((user) => openQueue(realm.engine, user.id));
  const response = await send();
  expect(response.status).toBe(status);
  expect(response.body).toEqual(expected);
  expect(await everyTable(realm)).toEqual(before);
  for (const watcher of watchers) expect(watcher.events).toEqual([]);
}
