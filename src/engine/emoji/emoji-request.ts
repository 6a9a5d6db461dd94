/**
 * An emoji as a request names it (reactions, user status): looked up by name, or checked that
 * its name, code and type agree, with upstream's messages.
 */
import { badRequest } from '../errors/api-error.ts';
import type { RealmEmojiRow } from '../storage/rows.ts';
import { serviceExtraEmoji, unicodeEmojiByCode, unicodeEmojiByName } from './emoji-catalog.ts';

export type EmojiType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';

/** An emoji by name, as upstream looks it up: active custom emoji first, then "zulip", then unicode. */
export function emojiByName(customEmoji: readonly RealmEmojiRow[], name: string): { code: string; type: EmojiType } {
  const custom = customEmoji.find((e) => e.name === name && !e.deactivated);
  if (custom) return { code: String(custom.id), type: 'realm_emoji' };
  const extra = serviceExtraEmoji(name);
  if (extra) return { code: extra.code, type: 'service_extra_emoji' };
  const unicode = unicodeEmojiByName(name);
  if (unicode) return { code: unicode.code, type: 'unicode_emoji' };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** A newly chosen emoji's name and code must agree, in the namespace of its type. */
export function checkEmojiRequest(customEmoji: readonly RealmEmojiRow[], name: string, code: string, type: string): asserts type is EmojiType {
  if (type === 'realm_emoji') {
    const custom = customEmoji.find((e) => String(e.id) === code);
    if (!custom) throw badRequest('Invalid custom emoji.');
    if (custom.name !== name) throw badRequest('Invalid custom emoji name.');
    if (custom.deactivated) throw badRequest('This custom emoji has been deactivated.');
  } else if (type === 'service_extra_emoji') {
    if (!serviceExtraEmoji(code)) throw badRequest('Invalid emoji code.');
    if (name !== code) throw badRequest('Invalid emoji name.');
  } else if (type === 'unicode_emoji') {
    if (!unicodeEmojiByCode(code)) throw badRequest('Invalid emoji code.');
    if (unicodeEmojiByName(name)?.code !== code) throw badRequest('Invalid emoji name.');
  } else {
    throw badRequest('Invalid emoji type.');
  }
}
