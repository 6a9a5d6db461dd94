import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Narrow } from '../../narrow/narrow.ts';
import type { KeptDraft } from '../../state/composer-state.ts';
import { useChat } from '../chat-context.ts';
import { channelTopicNames, writeIn } from '../messages/message-operations.ts';

/** How much of a draft the list shows. */
const PREVIEW_CHARS = 300;

/**
 * My drafts, kept in this browser per conversation (upstream's Drafts): where each waits and what
 * it says; Restore opens its conversation with the text in the compose box, Delete drops it.
 */
export function DraftsPanel() {
  const { session, composer, panel } = useChat();
  const realm = session.realm;
  // Follows the drafts as they are written, deleted or sent, as upstream's list does.
  const drafts = composer.kept;
  // Topics are kept lower-cased (they match that way): their names as the server shows them.
  const topicNames = useSignal<ReadonlyMap<string, string>>(new Map());
  const channelIds = [...new Set((drafts.value ?? []).flatMap((draft) => ('channelId' in draft ? [draft.channelId] : [])))].sort((a, b) => a - b);
  useEffect(() => {
    let live = true;
    void (async () => {
      const names = new Map<string, string>();
      for (const channelId of channelIds) {
        for (const name of await channelTopicNames(session, channelId).catch(() => [])) names.set(`${channelId}:${name.toLowerCase()}`, name);
      }
      if (live) topicNames.value = names;
    })();
    return () => {
      live = false;
    };
  }, [channelIds.join(',')]);

  if (drafts.value === null) return <p role="status">Loading…</p>;
  if (drafts.value.length === 0) return <p class="hint">No drafts. Text left in the compose box when you leave a conversation is kept here.</p>;
  const placeOf = (draft: KeptDraft): { narrow: Narrow; name: string } => {
    if ('userIds' in draft) return { narrow: { kind: 'dm', userIds: draft.userIds }, name: realm.conversationName(draft) };
    const topic = topicNames.value.get(`${draft.channelId}:${draft.topicKey}`) ?? draft.topicKey;
    return { narrow: { kind: 'channel', channelId: draft.channelId, topic }, name: realm.conversationName({ channelId: draft.channelId, topic }) };
  };
  return (
    <ul class="scheduled-list" aria-label="Drafts">
      {drafts.value.map((draft) => {
        const { narrow, name } = placeOf(draft);
        return (
          <li key={draft.key}>
            <p class="scheduled-meta draft-where">{name}</p>
            <p class="draft-text">{draft.text.length > PREVIEW_CHARS ? `${draft.text.slice(0, PREVIEW_CHARS)}…` : draft.text}</p>
            <div class="form-buttons">
              <button
                type="button"
                onClick={() => {
                  panel.value = 'none';
                  writeIn(session, composer, narrow);
                }}
              >
                Restore
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => void composer.deleteDraft(draft.key)}
              >
                Delete
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
