import type { ServerEmoji } from '../state/server-emoji.ts';
import { POPULAR_EMOJI } from './emoji.ts';

/** What picking an emoji hands on: its name, and its code and type when known. */
export interface PickedEmoji {
  name: string;
  code?: string;
  type?: string;
}

/** One emoji the picker offers. */
export interface PickerEmoji extends PickedEmoji {
  key: string;
  names: string[];
  /** A custom emoji's image. */
  image?: string;
}

/** A heading of the picker, its tab's symbol, and its emoji. */
export interface EmojiSection {
  name: string;
  /** Text-style symbols (U+FE0E asks for text presentation): they show with no emoji font too. */
  icon: string;
  emoji: PickerEmoji[];
}

/** Upstream's picker categories in its order (web/src/emoji_picker.ts), its Frequently used here our Popular row. */
const CATEGORIES: { name: string; icon: string }[] = [
  { name: 'Popular', icon: '★' },
  { name: 'Smileys & Emotion', icon: '☺\uFE0E' },
  { name: 'People & Body', icon: '✌\uFE0E' },
  { name: 'Animals & Nature', icon: '✿' },
  { name: 'Food & Drink', icon: '☕\uFE0E' },
  { name: 'Activities', icon: '⚽\uFE0E' },
  { name: 'Travel & Places', icon: '✈\uFE0E' },
  { name: 'Objects', icon: '☎\uFE0E' },
  { name: 'Symbols', icon: '#' },
  { name: 'Flags', icon: '⚑' },
  { name: 'Custom', icon: '⚙\uFE0E' },
];

/** Emoji of a category the picker does not know, or of a server that names no categories. */
const OTHER = { name: 'Other emoji', icon: '…' };

function unicodeChoice(code: string, names: string[]): PickerEmoji {
  return { key: code, name: names[0], names, code, type: 'unicode_emoji' };
}

/**
 * The picker's sections, upstream's: Popular, the server's categories in upstream's order, then
 * the realm's custom emoji; a section with no emoji is left out. Emoji the server puts in no
 * category come last, in the server's order (today's order, from another Zulip-style server).
 */
export function emojiSections(custom: PickerEmoji[], server: ServerEmoji[]): EmojiSection[] {
  const byCategory = new Map<string, PickerEmoji[]>([
    ['Popular', POPULAR_EMOJI.map((emoji) => unicodeChoice(emoji.code, [emoji.name]))],
    ['Custom', custom],
  ]);
  const known = new Set(CATEGORIES.map((category) => category.name));
  for (const emoji of server) {
    const name = emoji.category !== undefined && known.has(emoji.category) ? emoji.category : OTHER.name;
    const list = byCategory.get(name) ?? [];
    list.push(unicodeChoice(emoji.code, emoji.names));
    byCategory.set(name, list);
  }
  return [...CATEGORIES, OTHER]
    .map((category) => ({ ...category, emoji: byCategory.get(category.name) ?? [] }))
    .filter((section) => section.emoji.length > 0);
}
