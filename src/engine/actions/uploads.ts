/**
 * Uploaded files' metadata (upstream's Attachment): recording an upload, deleting one, and
 * claiming uploads for the messages that link them, which opens a file to those messages'
 * readers. Each change is announced to the file's owner (`attachment` add/update/remove, with
 * the realm's `upload_space_used`). The bytes are the route's business: they are written
 * before and deleted after the transaction, which may not wait on anything but the database.
 */
import { ApiError } from '../errors/api-error.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { loadAccessibleMessages } from '../narrow/message-access.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import type { AttachmentRow, MessageRow, UserRow } from '../storage/rows.ts';
import { attachmentToWire, uploadSpaceUsed } from '../wire/attachment-wire.ts';

export interface NewUpload {
  pathId: string;
  fileName: string;
  contentType: string;
  size: number;
}

export async function recordUpload(scope: CallerScope, upload: NewUpload): Promise<AttachmentRow> {
  const row: AttachmentRow = {
    id: await nextId(scope.db, 'attachment'),
    path_id: upload.pathId,
    file_name: upload.fileName,
    content_type: upload.contentType,
    size: upload.size,
    owner_id: scope.caller.id,
    create_time: scope.now,
    message_ids: [],
  };
  await scope.db.attachments.add(row);
  await notifyOwner(scope, row, 'add');
  return row;
}

/** Deletes the caller's own upload; returns its path, whose bytes go once this commits. */
export async function deleteAttachment(scope: CallerScope, id: number): Promise<string> {
  const row = await scope.db.attachments.get(id);
  if (!row || row.owner_id !== scope.caller.id) throw new ApiError('Invalid attachment');
  await scope.db.attachments.delete(id);
  scope.notify({
    event: { type: 'attachment', op: 'remove', attachment: { id }, upload_space_used: await uploadSpaceUsed(scope.db) },
    users: [row.owner_id],
  });
  return row.path_id;
}

/**
 * Whether `user` may fetch the file (upstream's validate_attachment_request): its owner, or a
 * reader of any message that links it.
 */
export async function mayAccessAttachment(
  db: RealmDatabase,
  directory: RealmDirectory,
  user: UserRow,
  row: AttachmentRow,
): Promise<boolean> {
  if (row.owner_id === user.id) return true;
  if (row.message_ids.length === 0) return false;
  return (await loadAccessibleMessages(db, directory, user, row.message_ids)).size > 0;
}

/**
 * Upstream's do_claim_attachments: links the message to each upload its content names that
 * the sender may access themselves (so nobody shares a file they cannot see); the others are
 * left alone. True when at least one was claimed: the message's `has_attachment`.
 */
export async function claimAttachments(
  scope: ActionScope,
  directory: RealmDirectory,
  message: MessageRow,
  pathIds: readonly string[],
): Promise<boolean> {
  const sender = directory.users.get(message.sender_id);
  if (!sender || pathIds.length === 0) return false;
  let claimed = false;
  const rows = await scope.db.attachments.where('path_id').anyOf([...pathIds]).toArray();
  for (const row of rows) {
    if (!(await mayAccessAttachment(scope.db, directory, sender, row))) continue;
    claimed = true;
    if (row.message_ids.includes(message.id)) continue;
    row.message_ids = [...row.message_ids, message.id];
    await scope.db.attachments.put(row);
    await notifyOwner(scope, row, 'update');
  }
  return claimed;
}

/**
 * After an edit (upstream's check_attachment_reference_change): uploads the content no longer
 * names lose the message, newly named ones are claimed. Answers whether the message still has
 * attachments, and the sender's uploads no message links any more (`detached_uploads`).
 */
export async function updateAttachmentClaims(
  scope: ActionScope,
  directory: RealmDirectory,
  message: MessageRow,
  pathIds: readonly string[],
): Promise<{ hasAttachment: boolean; detached: Awaited<ReturnType<typeof attachmentToWire>>[] }> {
  const wanted = new Set(pathIds);
  const linked = await scope.db.attachments.where('message_ids').equals(message.id).toArray();
  const detached = [];
  let kept = false;
  for (const row of linked) {
    if (wanted.has(row.path_id)) {
      kept = true;
      continue;
    }
    row.message_ids = row.message_ids.filter((id) => id !== message.id);
    await scope.db.attachments.put(row);
    if (row.message_ids.length === 0 && row.owner_id === message.sender_id) detached.push(await attachmentToWire(scope.db, row));
  }
  const known = new Set(linked.map((row) => row.path_id));
  const added = await claimAttachments(scope, directory, message, [...wanted].filter((p) => !known.has(p)));
  return { hasAttachment: kept || added, detached };
}

/** Deleted messages no longer open their files (the files stay, as upstream's until a cleanup). */
export async function unlinkDeletedMessages(db: RealmDatabase, messageIds: readonly number[]): Promise<void> {
  const gone = new Set(messageIds);
  const rows = await db.attachments.where('message_ids').anyOf([...messageIds]).distinct().toArray();
  for (const row of rows) {
    row.message_ids = row.message_ids.filter((id) => !gone.has(id));
    await db.attachments.put(row);
  }
}

async function notifyOwner(scope: ActionScope, row: AttachmentRow, op: 'add' | 'update'): Promise<void> {
  scope.notify({
    event: {
      type: 'attachment',
      op,
      attachment: await attachmentToWire(scope.db, row),
      upload_space_used: await uploadSpaceUsed(scope.db),
    },
    users: [row.owner_id],
  });
}
