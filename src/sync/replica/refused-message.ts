import type { RefusedMessage, SyncOutboxRow } from '../../engine/storage/rows.ts';

/** What a refusal keeps of a refused change: for a send, its fields, so the app can give its author the text back. */
export function refusedSendFields(row: SyncOutboxRow): { message?: RefusedMessage } {
  if (row.provisional_id === undefined) return {};
  const { type = '', to = '', topic, content = '' } = row.params;
  return { message: topic === undefined ? { type, to, content } : { type, to, topic, content } };
}
