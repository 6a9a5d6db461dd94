import type { RealmDatabase } from '../storage/database.ts';
import type { DraftRow } from '../storage/rows.ts';

export interface DraftWire {
  id: number;
  type: DraftRow['type'];
  to: number[];
  topic: string;
  content: string;
  /** Whole seconds, as upstream sends a draft's last edit time. */
  timestamp: number;
}

export function draftToWire(row: DraftRow): DraftWire {
  return { id: row.id, type: row.type, to: row.to, topic: row.topic, content: row.content, timestamp: Math.floor(row.last_edit_time) };
}

/** A user's drafts, least recently edited first (ties by id), as GET /drafts lists them. */
export async function draftsOf(db: RealmDatabase, userId: number): Promise<DraftRow[]> {
  const rows = await db.drafts.where('user_id').equals(userId).toArray();
  return rows.sort((a, b) => a.last_edit_time - b.last_edit_time || a.id - b.id);
}
