/**
 * Emoji in messages: `:name:` syntax (realm emoji, the `:zulip:` image, unicode emoji by any of
 * their names) and unicode emoji characters typed directly, in upstream's HTML shape.
 */
import type { TokenizerAndRendererExtension } from 'marked';
import { codeOfEmojiText, unicodeEmojiByCode, unicodeEmojiByName } from '../emoji/emoji-catalog.ts';
import { escapeAttribute, escapeText } from './html-escape.ts';
import { currentRender } from './render-state.ts';
import { syntaxMayStartAfter } from './syntax-boundary.ts';

const EMOJI_SYNTAX = /^:([\p{L}\p{N}_+-]+):/u;
const EMOJI_SYNTAX_ANYWHERE = /:[\p{L}\p{N}_+-]+:/u;
// Built with the constructor: the `v` flag postdates the TypeScript target.
const EMOJI_SEQUENCE = new RegExp('\\p{RGI_Emoji}', 'gv');
const NON_ASCII = /[^\x00-\x7f]/;
const ZERO_WIDTH_JOINER = '\u200d';
const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

/** Upstream titles an emoji by its name as written, with underscores read as spaces. */
function titleOf(name: string): string {
  return escapeAttribute(name.replace(/_/g, ' '));
}

function unicodeEmojiSpan(code: string, name: string): string {
  const title = titleOf(name);
  return `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">:${escapeText(name)}:</span>`;
}

function imageEmoji(name: string, src: string): string {
  return `<img alt=":${escapeAttribute(name)}:" class="emoji" src="${escapeAttribute(src)}" title="${titleOf(name)}">`;
}

/** The HTML for `:name:`, or undefined when no emoji has that name. Realm emoji shadow unicode ones. */
function emojiByNameHtml(name: string): string | undefined {
  const realmEmoji = currentRender().realm.realmEmoji(name);
  if (realmEmoji) return imageEmoji(name, realmEmoji.source_url);
  if (name === 'zulip') return imageEmoji(name, ZULIP_EMOJI_URL);
  const unicode = unicodeEmojiByName(name);
  return unicode && unicodeEmojiSpan(unicode.code, name);
}

export const emojiNameExtension: TokenizerAndRendererExtension = {
  name: 'emojiName',
  level: 'inline',
  start: (src) => src.search(EMOJI_SYNTAX_ANYWHERE),
  tokenizer(src) {
    if (this.lexer.state.inLink) return undefined;
    const match = EMOJI_SYNTAX.exec(src);
    if (!match) return undefined;
    const html = emojiByNameHtml(match[1]);
    return html === undefined ? undefined : { type: 'emojiName', raw: match[0], html };
  },
  renderer: (token) => token.html as string,
};

/**
 * Emoticons and the emoji they become when the sender's `translate_emoticons` is on, as
 * upstream's server translates them (its `EMOTICON_CONVERSIONS`).
 */
const EMOTICONS: Readonly<Record<string, string>> = {
  ':)': 'slight_smile', '(:': 'slight_smile', ':(': 'frown', '<3': 'heart', ':|': 'neutral', ':/': 'confused',
  ';)': 'wink', ':D': 'smile', ':o': 'open_mouth', ':O': 'open_mouth', ':p': 'stuck_out_tongue', ':P': 'stuck_out_tongue',
};
/** An emoticon stands apart: at either side the text's end, a space or one of these (upstream's terminal symbols). */
const NEIGHBOUR_CLASS = `[,.;?!()[\\] "'\\n\\t]`;
const EMOTICON_NEIGHBOUR = new RegExp(NEIGHBOUR_CLASS);
/**
 * Where an emoticon may start: one set apart after it, and before it unless it opens the text
 * (what came before the text is the tokenizer's to judge). One joined to a word is no place to
 * cut the text at: each cut would make every other extension search the rest again.
 */
const EMOTICON_APART = new RegExp(
  `(?:^|(?<=${NEIGHBOUR_CLASS}))(?:${Object.keys(EMOTICONS).map((emoticon) => emoticon.replace(/[()|/]/g, '\\$&')).join('|')})(?=$|${NEIGHBOUR_CLASS})`,
);

export const emoticonExtension: TokenizerAndRendererExtension = {
  name: 'emoticon',
  level: 'inline',
  start: (src) => (currentRender().translateEmoticons ? src.search(EMOTICON_APART) : -1),
  tokenizer(src, tokens) {
    if (!currentRender().translateEmoticons || this.lexer.state.inLink) return undefined;
    const emoticon = src.slice(0, 2);
    const name = Object.hasOwn(EMOTICONS, emoticon) ? EMOTICONS[emoticon] : undefined;
    const after = src.charAt(2);
    if (name === undefined || (after !== '' && !EMOTICON_NEIGHBOUR.test(after)) || !syntaxMayStartAfter(tokens, EMOTICON_NEIGHBOUR)) return undefined;
    const html = emojiByNameHtml(name);
    return html === undefined ? undefined : { type: 'emoticon', raw: emoticon, html };
  },
  renderer: (token) => token.html as string,
};

/** Escapes plain text, wrapping each known unicode emoji in it as upstream does. */
export function renderTextWithEmoji(text: string): string {
  if (!NON_ASCII.test(text)) return escapeText(text);
  let html = '';
  let position = 0;
  for (const found of text.matchAll(EMOJI_SEQUENCE)) {
    // A piece of a joined sequence this catalogue does not know stays text, as the whole sequence does.
    const end = found.index + found[0].length;
    if (text.charAt(found.index - 1) === ZERO_WIDTH_JOINER || text.charAt(end) === ZERO_WIDTH_JOINER) continue;
    const emoji = unicodeEmojiByCode(codeOfEmojiText(found[0]));
    if (!emoji) continue;
    html += escapeText(text.slice(position, found.index)) + unicodeEmojiSpan(emoji.code, emoji.name);
    position = end;
  }
  return html + escapeText(text.slice(position));
}
