/**
 * The unicode emoji catalogue, from the `emoji-datasource` package: the names a message may use
 * in `:name:` syntax and in reactions, and the codes upstream writes into `emoji-<code>` classes.
 */
import emojiData from 'emoji-datasource/emoji.json' with { type: 'json' };
import { ZULIP_EMOJI_NAMES } from './zulip-emoji-names.ts';

export interface UnicodeEmoji {
  /** The canonical name (emoji-datasource's `short_name`). */
  name: string;
  /** Lowercase dash-separated hex codepoints without fe0f, e.g. "1f44d", "1f468-200d-1f4bb". */
  code: string;
  /** The other names that resolve to this emoji. */
  aliases: string[];
}

interface Catalog {
  byName: Map<string, UnicodeEmoji>;
  byCode: Map<string, UnicodeEmoji>;
}

let catalog: Catalog | undefined;

/** Upstream's codes drop the emoji-presentation selector, so both forms of an emoji share one code. */
function normaliseCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

// The indexes are built on first use: most engine work never looks at emoji.
function loadCatalog(): Catalog {
  if (catalog) return catalog;
  const byName = new Map<string, UnicodeEmoji>();
  const byCode = new Map<string, UnicodeEmoji>();
  for (const entry of emojiData) {
    // Skin-tone modifiers are not emoji of their own; upstream refuses them as names.
    if (entry.category === 'Component') continue;
    const emoji: UnicodeEmoji = {
      name: entry.short_name,
      code: normaliseCode(entry.unified),
      aliases: entry.short_names.filter((name) => name !== entry.short_name),
    };
    for (const name of entry.short_names) byName.set(name, emoji);
    byCode.set(emoji.code, emoji);
    if (entry.non_qualified) byCode.set(normaliseCode(entry.non_qualified), emoji);
  }
  for (const [name, code] of Object.entries(ZULIP_EMOJI_NAMES)) {
    const emoji = byCode.get(code);
    if (emoji && !byName.has(name)) {
      emoji.aliases.push(name);
      byName.set(name, emoji);
    }
  }
  catalog = { byName, byCode };
  return catalog;
}

export function unicodeEmojiByName(name: string): UnicodeEmoji | undefined {
  return loadCatalog().byName.get(name);
}

export function unicodeEmojiByCode(code: string): UnicodeEmoji | undefined {
  return loadCatalog().byCode.get(normaliseCode(code));
}

let codeToNames: Record<string, string[]> | undefined;

/**
 * Every Unicode emoji the server accepts, as upstream's `server_emoji_data_url` file describes
 * them: code -> names, the canonical name first.
 */
export function emojiCodeToNames(): Record<string, string[]> {
  if (codeToNames) return codeToNames;
  codeToNames = {};
  for (const emoji of new Set(loadCatalog().byCode.values())) codeToNames[emoji.code] = [emoji.name, ...emoji.aliases];
  return codeToNames;
}

let catalogByCategory: Record<string, string[]> | undefined;

/**
 * The picker's categories, as upstream's `emoji_catalog` (emoji_codes.json): emoji-datasource's
 * category -> codes in its `sort_order`. The keys' order means nothing: a picker orders the
 * categories itself, as upstream's does.
 */
export function emojiCatalog(): Record<string, string[]> {
  if (catalogByCategory) return catalogByCategory;
  catalogByCategory = {};
  const entries = emojiData.filter((entry) => entry.category !== 'Component').sort((a, b) => a.sort_order - b.sort_order);
  for (const entry of entries) (catalogByCategory[entry.category] ??= []).push(normaliseCode(entry.unified));
  return catalogByCategory;
}

/** The hex code of an emoji as typed, in the catalogue's form: "👍" -> "1f44d". */
export function codeOfEmojiText(text: string): string {
  return normaliseCode(Array.from(text, (char) => char.codePointAt(0)!.toString(16).padStart(4, '0')).join('-'));
}

/** Names valid for reaction_type service_extra_emoji (upstream "zulip_extra_emoji"): just "zulip". */
export function serviceExtraEmoji(name: string): { name: string; code: string } | undefined {
  return name === 'zulip' ? { name: 'zulip', code: 'zulip' } : undefined;
}
