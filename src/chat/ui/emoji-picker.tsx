import { useSignal } from '@preact/signals';
import { useChat } from './chat-context.ts';
import { emojiCharacter, POPULAR_EMOJI } from './emoji.ts';

export interface PickedEmoji {
  name: string;
  code?: string;
  type?: string;
}

/**
 * Picks an emoji: the realm's custom emoji and the popular ones, filtered by name as you type;
 * any other name can be sent as typed (the server knows every Zulip emoji name and refuses unknown ones).
 */
export function EmojiPicker({ onPick }: { onPick(emoji: PickedEmoji): void }) {
  const { session } = useChat();
  const query = useSignal('');
  const wanted = query.value.trim().toLowerCase().replace(/^:|:$/g, '');
  const custom = Object.values(session.realm.realmEmoji.value).filter((emoji) => !emoji.deactivated);
  const choices = [
    ...custom.map((emoji) => ({ name: emoji.name, code: emoji.id, type: 'realm_emoji', image: session.api.resolve(emoji.source_url) })),
    ...POPULAR_EMOJI.map((emoji) => ({ ...emoji, type: 'unicode_emoji', image: undefined })),
  ].filter((emoji) => emoji.name.includes(wanted));
  const exact = choices.some((emoji) => emoji.name === wanted);
  return (
    <div class="emoji-picker">
      <input
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji by name"
        autofocus
        value={query.value}
        onInput={(event) => (query.value = event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || !wanted) return;
          event.preventDefault();
          const first = choices[0];
          onPick(first && (exact || choices.length === 1) ? first : { name: wanted });
        }}
      />
      <div class="emoji-grid" role="group" aria-label="Emoji">
        {choices.map((emoji) => (
          <button key={`${emoji.type}:${emoji.code}`} type="button" class="emoji-choice" aria-label={emoji.name} title={`:${emoji.name}:`} onClick={() => onPick(emoji)}>
            {emoji.image ? <img src={emoji.image} alt="" class="emoji-image" /> : emojiCharacter(emoji.code)}
          </button>
        ))}
      </div>
      {wanted && !exact && (
        <button type="button" class="emoji-by-name" onClick={() => onPick({ name: wanted })}>
          Use :{wanted}:
        </button>
      )}
    </div>
  );
}
