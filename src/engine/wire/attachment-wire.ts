import type { RealmDatabase } from '../storage/database.ts';
import type { AttachmentRow } from '../storage/rows.ts';

/** Upstream's Attachment object. Times are milliseconds: seconds only from feature level 443. */
export interface AttachmentWire {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  messages: { id: number; date_sent: number }[];
}

export async function attachmentToWire(db: RealmDatabase, row: AttachmentRow): Promise<AttachmentWire> {
  const messages = await db.messages.bulkGet(row.message_ids);
  return {
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: row.create_time * 1000,
    messages: messages.flatMap((m) => (m ? [{ id: m.id, date_sent: m.timestamp * 1000 }] : [])),
  };
}

/** The user's uploads, oldest first. */
export async function attachmentsOf(db: RealmDatabase, userId: number): Promise<AttachmentRow[]> {
  const rows = await db.attachments.where('owner_id').equals(userId).toArray();
  return rows.sort((a, b) => a.id - b.id);
}

/** Upstream's `upload_space_used`: the bytes of every file uploaded in the realm. */
export async function uploadSpaceUsed(db: RealmDatabase): Promise<number> {
  let total = 0;
  await db.attachments.each((row) => {
    total += row.size;
  });
  return total;
}
