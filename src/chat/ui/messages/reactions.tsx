import type { Message, Reaction } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import { emojiCharacter } from '../emoji.ts';
import { toggleReaction } from './message-operations.ts';

interface Group {
  key: string;
  name: string;
  code: string;
  type: string;
  userIds: number[];
}

function groups(reactions: Reaction[]): Group[] {
  const byKey = new Map<string, Group>();
  for (const reaction of reactions) {
    const key = `${reaction.reaction_type}:${reaction.emoji_code}`;
    const group = byKey.get(key) ?? { key, name: reaction.emoji_name, code: reaction.emoji_code, type: reaction.reaction_type, userIds: [] };
    group.userIds.push(reaction.user_id);
    byKey.set(key, group);
  }
  return [...byKey.values()];
}

/** A message's reactions, one toggle each (pressed when I reacted), naming who reacted. */
export function Reactions({ message }: { message: Message }) {
  const { session } = useChat();
  const realm = session.realm;
  if (message.reactions.length === 0) return null;
  return (
    <div class="reactions">
      {groups(message.reactions).map((group) => {
        const mine = group.userIds.includes(session.me);
        const who = group.userIds.map((id) => (id === session.me ? 'You' : realm.userName(id))).join(', ');
        const custom = group.type === 'realm_emoji' ? realm.realmEmoji.value[group.code] : undefined;
        return (
          <button
            key={group.key}
            type="button"
            class={`reaction ${mine ? 'mine' : ''}`}
            aria-pressed={mine}
            aria-label={`${group.name}: ${who}`}
            title={`${who} reacted with :${group.name}:`}
            onClick={() => void toggleReaction(session, message, { name: group.name, code: group.code, type: group.type })}
          >
            {custom ? <img src={session.api.resolve(custom.source_url)} alt="" class="emoji-image" /> : group.type === 'unicode_emoji' ? emojiCharacter(group.code) : `:${group.name}:`}
            <span class="reaction-count">{group.userIds.length}</span>
          </button>
        );
      })}
    </div>
  );
}
