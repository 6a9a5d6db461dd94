import type { EntityTable } from 'dexie';

/** Starts a set-aside key: no name or email a person can give holds a NUL. */
const SET_ASIDE = '\u0000set-aside:';

/**
 * Frees the unique keys (a channel's name, a user's email) that a page's rows take from other
 * rows the replica holds. Such a row is stale: the hub gave its key away, so it changed that row
 * first, and the change is in this page or a later one. Until it comes, the row keeps its shown
 * name and gets a key no real row holds; without this, the page's put is refused and the replica
 * could never apply the page (a channel renamed and its old name given to a new one, in either
 * order within a page).
 */
export async function freeTakenKeys<Row extends { id: number }, Key extends keyof Row & string>(
  table: EntityTable<Row, 'id'>,
  key: Key,
  rows: readonly Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const takenBy = new Map(rows.map((row) => [row[key], row.id]));
  const holders = await table.where(key).anyOf([...takenBy.keys()] as string[]).toArray();
  for (const holder of holders) {
    if (takenBy.get(holder[key]) === holder.id) continue;
    await table.update(holder, { [key]: `${SET_ASIDE}${holder.id}` } as never);
  }
}
