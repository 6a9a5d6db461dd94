import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { MessageRow } from '../storage/rows.ts';

/** An event as actions emit it: `type` plus its payload, before a queue gives it an `id`. */
export type EngineEvent = { type: string } & Record<string, unknown>;

export type QueuedEvent = EngineEvent & { id: number };

export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
  user_list_incomplete: boolean;
  include_deactivated_groups: boolean;
  archived_channels: boolean;
  empty_topic_name: boolean;
  simplified_presence_events: boolean;
}

export const NO_CAPABILITIES: ClientCapabilities = {
  notification_settings_null: false,
  bulk_message_deletion: false,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: false,
  linkifier_url_template: false,
  user_list_incomplete: false,
  include_deactivated_groups: false,
  archived_channels: false,
  empty_topic_name: false,
  simplified_presence_events: false,
};

/**
 * What an action hands to delivery after its transaction commits: one canonical event and the
 * users whose queues may see it. `perUser` adds per-user fields (a message's `flags`).
 */
export interface Notice {
  event: EngineEvent;
  users: readonly number[];
  perUser?: ReadonlyMap<number, Record<string, unknown>>;
  /** A message in this public channel also reaches `all_public_streams` queues. */
  allPublicStreamsChannelId?: number;
  /** For `message` events: renders the message per receiving queue. */
  message?: MessageNotice;
  /** The realm's name for the empty topic, shown by queues without `empty_topic_name`. */
  emptyTopicDisplayName?: string;
  /** For an archiving `stream` update: the archived channel's object, for the `delete` queues without `archived_channels` get. */
  archivedChannel?: Record<string, unknown>;
  /** The messages whose rows changed, when the event does not list them (`update_message_flags` with `all`). */
  changedMessageIds?: readonly number[];
}

/**
 * A `message` notice's message, as data: the stored row and the realm directory the sending
 * transaction read. Delivery renders it per receiving queue, as upstream's event queue
 * finalizes one message dict per client: the object depends on the viewer (which emails are
 * real, a 1:1 conversation's recipient_id) and on the queue's options (HTML or Markdown,
 * empty-topic support).
 */
export interface MessageNotice {
  row: MessageRow;
  directory: RealmDirectory;
  /** The sending client's queue and local id, echoed back for local echo. */
  senderQueueId?: string;
  localId?: string;
}
