import type { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import type { EngineEvent, Notice } from '../../engine/events/event-types.ts';
import { topicLinks } from '../../engine/markdown/linkifiers.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import { flagList } from '../../engine/storage/flags.ts';
import type { MessageRow } from '../../engine/storage/rows.ts';
import type { MessageBundle } from '../protocol.ts';
import type { LocalMessage } from './local-notices.ts';

/** A held message a page changed: as the replica held it, and as the hub has it now. */
export interface ChangedMessage {
  old: LocalMessage;
  bundle: MessageBundle;
}

/**
 * The `update_message` notices for the held messages a page changed, as the hub's edit and move
 * tell them (docs/SYNC.md, replica rule 4): a content edit, one each; the messages one move took
 * along (same place before and after, same mover, same time), one notice naming them all, as
 * the hub's move does. Its `propagate_mode` is read from what the move left behind in the old
 * topic (the page's rows already written): nothing, `change_all`; only older messages,
 * `change_later` (`change_one` for a single message); else `change_one`. Keyed by the first message of each notice, so it is told
 * where that message's other changes are.
 */
export async function updateNotices(db: RealmDatabase, directory: RealmDirectory, me: number, changed: readonly ChangedMessage[]): Promise<Map<number, Notice>> {
  const notices = new Map<number, Notice>();
  const moves = new Map<string, ChangedMessage[]>();
  for (const change of changed) {
    const { old, bundle } = change;
    const contentChanged = old.message.content !== bundle.message.content || old.message.rendered_content !== bundle.message.rendered_content;
    if (contentChanged) {
      notices.set(bundle.message.id, updateNotice(directory, me, [change], 'change_one'));
      continue;
    }
    if (!isMove(old.message, bundle.message)) continue;
    const key = JSON.stringify([old.message.stream_id, old.message.topic, bundle.message.stream_id, bundle.message.topic, editorOf(bundle.message), bundle.message.last_moved_timestamp]);
    moves.set(key, [...(moves.get(key) ?? []), change]);
  }
  for (const group of moves.values()) {
    group.sort((a, b) => a.bundle.message.id - b.bundle.message.id);
    const from = group[0]!.old.message;
    const left = from.stream_id === undefined ? [] : await db.messages.where('[stream_id+topic_key+id]').between([from.stream_id, from.topic_key, 0], [from.stream_id, from.topic_key, Infinity]).primaryKeys();
    // One message moved off a topic's end reads as either; as `change_one`, the mode a move of a single message most often has.
    const mode = left.length === 0 ? 'change_all' : Math.max(...left) < from.id && group.length > 1 ? 'change_later' : 'change_one';
    notices.set(group[0]!.bundle.message.id, updateNotice(directory, me, group, mode));
  }
  return notices;
}

const isMove = (old: MessageRow, row: MessageRow): boolean => old.topic !== row.topic || old.stream_id !== row.stream_id;

const editorOf = (row: MessageRow): number => row.edit_history?.[0]?.user_id ?? row.sender_id;

/** One `update_message` for `changes` (the first one's content change, if any, and their common move). */
function updateNotice(directory: RealmDirectory, me: number, changes: readonly ChangedMessage[], mode: string): Notice {
  const { old, bundle } = changes[0]!;
  const [was, row] = [old.message, bundle.message];
  const event: EngineEvent = {
    type: 'update_message',
    user_id: editorOf(row),
    edit_timestamp: row.last_edit_timestamp ?? row.last_moved_timestamp ?? row.timestamp,
    message_id: row.id,
    message_ids: changes.map((change) => change.bundle.message.id),
    rendering_only: false,
  };
  if (was.content !== row.content || was.rendered_content !== row.rendered_content) {
    Object.assign(event, {
      orig_content: was.content,
      orig_rendered_content: was.rendered_content,
      content: row.content,
      rendered_content: row.rendered_content,
      is_me_message: row.is_me_message,
    });
  }
  const channel = was.stream_id === undefined ? undefined : directory.channels.get(was.stream_id);
  if (channel) {
    Object.assign(event, { stream_name: channel.name, stream_id: channel.id });
    if (isMove(was, row)) Object.assign(event, { propagate_mode: mode, orig_subject: was.topic });
    if (row.stream_id !== was.stream_id) event.new_stream_id = row.stream_id;
    if (row.topic !== was.topic) Object.assign(event, { subject: row.topic, topic_links: topicLinks(row.topic, directory.linkifiers) });
  }
  // Without flags of the user's, the flags the hub's edit tells a reader of the channel's history.
  const flags = bundle.user_message ? flagList(bundle.user_message.flags) : ['read'];
  return { event, users: [me], perUser: new Map([[me, { flags }]]), emptyTopicDisplayName: directory.realm.empty_topic_display_name };
}
