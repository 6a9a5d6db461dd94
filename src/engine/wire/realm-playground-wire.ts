import type { RealmPlaygroundRow } from '../storage/rows.ts';

/** The realm's code playgrounds as register's `realm_playgrounds` and its event list them: in id order. */
export function realmPlaygroundsToWire(rows: readonly RealmPlaygroundRow[]): Record<string, unknown>[] {
  return [...rows]
    .sort((a, b) => a.id - b.id)
    .map((p) => ({ id: p.id, name: p.name, pygments_language: p.pygments_language, url_template: p.url_template }));
}
