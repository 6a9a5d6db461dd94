import type { RealmDatabase } from '../storage/database.ts';
import type { NavigationViewRow } from '../storage/rows.ts';

export function navigationViewToWire(row: NavigationViewRow): { fragment: string; is_pinned: boolean; name: string | null } {
  return { fragment: row.fragment, is_pinned: row.is_pinned, name: row.name };
}

export async function navigationViewsOf(db: RealmDatabase, userId: number): Promise<NavigationViewRow[]> {
  const rows = await db.navigation_views.where('user_id').equals(userId).toArray();
  return rows.sort((a, b) => (a.fragment < b.fragment ? -1 : a.fragment > b.fragment ? 1 : 0));
}
