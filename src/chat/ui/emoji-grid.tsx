import type { PickedEmoji, PickerEmoji } from './emoji-sections.ts';
import { emojiCharacter } from './emoji.ts';

/** A grid of emoji buttons, each named by its canonical name, its other names in its tooltip. */
export function EmojiGrid({ emoji, label, onPick }: { emoji: PickerEmoji[]; label: string; onPick(emoji: PickedEmoji): void }) {
  return (
    <div class="emoji-grid" role="group" aria-label={label}>
      {emoji.map((choice) => (
        <button key={choice.key} type="button" class="emoji-choice" aria-label={choice.name} title={choice.names.map((name) => `:${name}:`).join(' ')} onClick={() => onPick(choice)}>
          {choice.image ? <img src={choice.image} alt="" class="emoji-image" /> : emojiCharacter(choice.code ?? '')}
        </button>
      ))}
    </div>
  );
}
