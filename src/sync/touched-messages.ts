import type { Notice } from '../engine/events/event-types.ts';

/**
 * The messages an action changed, read from one of its plain-data notices: the hub journals
 * them (`hub/change-journal.ts`), and a replica records those its own run of a change touched
 * (`replica/capture.ts`), to refresh them from the hub once the hub has run it.
 */
export function touchedMessageIds(notice: Notice): readonly number[] {
  if (notice.changedMessageIds) return notice.changedMessageIds;
  const event = notice.event;
  switch (event.type) {
    case 'message':
      return notice.message ? [notice.message.row.id] : [];
    case 'update_message':
    case 'delete_message':
      return ids(event.message_ids ?? [event.message_id]);
    case 'reaction':
    case 'submessage':
      return ids([event.message_id]);
    case 'update_message_flags':
      return ids(event.messages);
    default:
      return [];
  }
}

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id)) : []);
