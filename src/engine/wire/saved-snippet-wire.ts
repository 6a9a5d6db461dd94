import type { RealmDatabase } from '../storage/database.ts';
import type { SavedSnippetRow } from '../storage/rows.ts';

export interface SavedSnippetWire {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

export function savedSnippetToWire(row: SavedSnippetRow): SavedSnippetWire {
  return { id: row.id, title: row.title, content: row.content, date_created: row.date_created };
}

export async function savedSnippetsOf(db: RealmDatabase, userId: number): Promise<SavedSnippetRow[]> {
  const rows = await db.saved_snippets.where('user_id').equals(userId).toArray();
  return rows.sort((a, b) => a.id - b.id);
}
