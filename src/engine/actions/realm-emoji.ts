/**
 * Custom emoji (upstream's realm_emoji): uploading one and deactivating it. The image's bytes are
 * the route's business (written before the transaction, deleted if it fails), as for uploads.
 * Every change sends the whole list, deactivated emoji included, to every user.
 */
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { unicodeEmojiByName } from '../emoji/emoji-catalog.ts';
import { ApiError, badRequest } from '../errors/api-error.ts';
import { realmEmojiToWire } from '../wire/realm-emoji-wire.ts';
import { realmPermissionGroup } from '../permissions/realm-permissions.ts';
import { isInGroupSetting } from '../permissions/system-groups.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { nextId } from '../storage/database.ts';
import { ROLE_ADMIN, ROLE_GUEST, type UserRow } from '../storage/rows.ts';
import { uploadUrl } from '../storage/upload-paths.ts';
import { MAX_EMOJI_FILE_SIZE_MIB } from '../validation/upload-limits.ts';
import { activeUserIds } from './profile-fields.ts';

/** Image types upstream both thumbnails and shows inline: what an emoji may be. */
const EMOJI_IMAGE_TYPES = new Set(['image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp']);

export interface EmojiImage {
  size: number;
  contentType: string;
}

/** The name as upstream reads it from the path: trimmed, spaces as underscores. */
export const emojiNameFromPath = (raw: string): string => raw.trim().replaceAll(' ', '_');

/**
 * Upstream's checks for an emoji upload, in its order; `images` are the request's files. Run
 * before the bytes are stored (so a refusal stores nothing) and again inside the transaction.
 */
export function checkEmojiUpload(directory: RealmDirectory, caller: UserRow, name: string, images: readonly EmojiImage[]): EmojiImage {
  checkEmojiName(name);
  if (caller.role === ROLE_GUEST) throw badRequest('Not allowed for guest users');
  if (!isInGroupSetting(caller, realmPermissionGroup(directory.realm, 'can_add_custom_emoji_group'), directory.groups)) {
    throw badRequest('Insufficient permission');
  }
  if (directory.emoji.some((e) => e.name === name && !e.deactivated)) throw badRequest('A custom emoji with this name already exists.');
  if (images.length !== 1) throw badRequest('You must upload exactly one file.');
  if (unicodeEmojiByName(name) && caller.role > ROLE_ADMIN) throw badRequest('Only administrators can override built-in emoji.');
  const [image] = images;
  if (image.size > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  if (!EMOJI_IMAGE_TYPES.has(image.contentType.split(';', 1)[0].trim().toLowerCase())) throw badRequest('Invalid image format');
  return image;
}

function checkEmojiName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw badRequest('Emoji names must end with either a letter or digit.');
    return;
  }
  throw badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

/** POST /realm/emoji/{emoji_name}: the emoji, its image already at `pathId` in the upload store. */
export async function addRealmEmoji(scope: CallerScope, input: { name: string; pathId: string; image: EmojiImage }): Promise<void> {
  const image = checkEmojiUpload(scope.directory, scope.caller, input.name, [input.image]);
  // Emoji are never deleted, so ids after the highest are free even in a realm whose emoji came without a counter.
  const highest = scope.directory.emoji.reduce((max, e) => Math.max(max, e.id), 0);
  await scope.db.realm_emoji.add({
    id: await nextId(scope.db, 'realm_emoji', highest + 1),
    name: input.name,
    source_url: uploadUrl(input.pathId),
    deactivated: false,
    author_id: scope.caller.id,
    path_id: input.pathId,
    content_type: image.contentType,
  });
  await notifyRealmEmoji(scope);
}

/** DELETE /realm/emoji/{emoji_name}: deactivates it (old messages keep showing it), for administrators and its author. */
export async function deactivateRealmEmoji(scope: CallerScope, name: string): Promise<void> {
  const emoji = scope.directory.emoji.find((e) => e.name === name && !e.deactivated);
  if (!emoji) throw new ApiError(`Emoji '${name}' does not exist`, { status: 404 });
  if (scope.caller.role > ROLE_ADMIN && emoji.author_id !== scope.caller.id) {
    throw badRequest('Must be an organization administrator or emoji author');
  }
  await scope.db.realm_emoji.update(emoji.id, { deactivated: true });
  await notifyRealmEmoji(scope);
}

async function notifyRealmEmoji(scope: CallerScope): Promise<void> {
  const emoji = await scope.db.realm_emoji.toArray();
  scope.notify({ event: { type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiToWire(emoji) }, users: activeUserIds(scope.directory) });
}
