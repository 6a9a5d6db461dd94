import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { ServerEmoji } from '../state/server-emoji.ts';
import { useChat } from './chat-context.ts';
import { emojiCharacter, POPULAR_EMOJI } from './emoji.ts';

export interface PickedEmoji {
  name: string;
  code?: string;
  type?: string;
}

/** More would make a slow grid; a search narrows it. */
const SHOWN = 160;

interface Choice extends PickedEmoji {
  key: string;
  image?: string;
  names: string[];
}

/**
 * Picks an emoji from the server's emoji data: the realm's custom emoji, then the popular ones,
 * then every Unicode emoji the server accepts (fetched when the picker first opens), filtered by
 * any of their names as you type. Enter takes the first match; a name that matches nothing is
 * offered as typed only while the server's names are not here to say it does not exist.
 */
export function EmojiPicker({ onPick }: { onPick(emoji: PickedEmoji): void }) {
  const { session } = useChat();
  const query = useSignal('');
  const all = useSignal<ServerEmoji[]>([]);
  useEffect(() => {
    void session.emoji.load().then((emoji) => (all.value = emoji));
  }, []);

  const wanted = query.value.trim().toLowerCase().replace(/^:|:$/g, '');
  const popular = new Set(POPULAR_EMOJI.map((emoji) => emoji.code));
  const choices: Choice[] = [
    ...Object.values(session.realm.realmEmoji.value)
      .filter((emoji) => !emoji.deactivated)
      .map((emoji) => ({ key: `realm:${emoji.id}`, name: emoji.name, names: [emoji.name], code: emoji.id, type: 'realm_emoji', image: session.api.resolve(emoji.source_url) })),
    ...POPULAR_EMOJI.map((emoji) => ({ key: emoji.code, name: emoji.name, names: [emoji.name], code: emoji.code, type: 'unicode_emoji' })),
    ...all.value
      .filter((emoji) => !popular.has(emoji.code))
      .map((emoji) => ({ key: emoji.code, name: emoji.names[0], names: emoji.names, code: emoji.code, type: 'unicode_emoji' })),
  ].filter((emoji) => !wanted || emoji.names.some((name) => name.includes(wanted)));
  const exact = choices.find((emoji) => emoji.names.includes(wanted));
  // Without the server's emoji names (not loaded), a typed name may still be one the server knows.
  const byNameOnly = all.value.length === 0;
  const shown = choices.slice(0, SHOWN);
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
          const picked = exact ?? choices[0] ?? (byNameOnly ? { name: wanted } : undefined);
          if (picked) onPick(picked);
        }}
      />
      <div class="emoji-grid" role="group" aria-label="Emoji">
        {shown.map((emoji) => (
          <button key={emoji.key} type="button" class="emoji-choice" aria-label={emoji.name} title={emoji.names.map((name) => `:${name}:`).join(' ')} onClick={() => onPick(emoji)}>
            {emoji.image ? <img src={emoji.image} alt="" class="emoji-image" /> : emojiCharacter(emoji.code ?? '')}
          </button>
        ))}
      </div>
      {choices.length > SHOWN && <p class="hint">{choices.length - SHOWN} more: type to narrow the list.</p>}
      {wanted && choices.length === 0 &&
        (byNameOnly ? (
          <button type="button" class="emoji-by-name" onClick={() => onPick({ name: wanted })}>
            Use :{wanted}:
          </button>
        ) : (
          <p class="hint" role="status">
            No emoji is named “{wanted}”.
          </p>
        ))}
    </div>
  );
}
