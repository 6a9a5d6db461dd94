/**
 * Channel folders (spec 4.8, 5.3). Only organization administrators change them: their
 * endpoints admit no one else, so these actions do not check the caller's role.
 */
import type { Notice } from '../events/event-types.ts';
import { badRequest } from '../errors/api-error.ts';
import { channelFolderToWire } from '../wire/channel-folder-wire.ts';
import { firstUnprintablePosition } from '../validation/printable-text.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { renderMessage } from '../markdown/render-message.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import type { ChannelFolderRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';

/** A usable folder name: not blank, printable, and not another folder's (case-insensitively). */
async function checkFolderName(db: RealmDatabase, name: string, ownId?: number): Promise<void> {
  if (name.trim() === '') throw badRequest("Channel folder name can't be empty.");
  const position = firstUnprintablePosition(name);
  if (position !== null) throw badRequest(`Invalid character in channel folder name, at position ${position}.`);
  const holder = await db.channel_folders.where('name_key').equals(name.toLowerCase()).first();
  if (holder && holder.id !== ownId) throw badRequest('Channel folder name already in use');
}

const renderDescription = (description: string, directory: RealmDirectory): string =>
  description === '' ? '' : renderMessage(description, directory.markdownRealm()).html;

/** Folder events go to every active user of the realm. */
function folderNotice(directory: RealmDirectory, event: Notice['event']): Notice {
  const users = [...directory.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);
  return { event, users };
}

async function folderOrError(db: RealmDatabase, folderId: number): Promise<ChannelFolderRow> {
  const folder = await db.channel_folders.get(folderId);
  if (!folder) throw badRequest('Invalid channel folder ID');
  return folder;
}

/** Creates a folder, last in the display order (its order is its id, as upstream). */
export async function createChannelFolder(
  scope: CallerScope,
  input: { name: string; description: string },
): Promise<{ channel_folder_id: number }> {
  const { db, directory, caller: user } = scope;
  await checkFolderName(db, input.name);
  const id = await nextId(db, 'channel_folder');
  const folder: ChannelFolderRow = {
    id,
    name: input.name,
    name_key: input.name.toLowerCase(),
    description: input.description,
    rendered_description: renderDescription(input.description, directory),
    order: id,
    date_created: scope.now,
    creator_id: user.id,
    is_archived: false,
  };
  await db.channel_folders.add(folder);
  scope.notify(folderNotice(directory, { type: 'channel_folder', op: 'add', channel_folder: channelFolderToWire(folder) }));
  return { channel_folder_id: id };
}

/**
 * Renames, redescribes, archives or unarchives a folder; each change that is one gets its
 * `channel_folder` `update` event. A folder still holding channels cannot be archived.
 */
export async function updateChannelFolder(
  scope: CallerScope,
  changes: { folderId: number; name?: string; description?: string; isArchived?: boolean },
): Promise<void> {
  const { db, directory } = scope;
  const { folderId } = changes;
  const folder = await folderOrError(db, folderId);
  const next = { ...folder };
  const updates: Record<string, unknown>[] = [];
  if (changes.name !== undefined && changes.name !== folder.name) {
    await checkFolderName(db, changes.name, folderId);
    next.name = changes.name;
    next.name_key = changes.name.toLowerCase();
    updates.push({ name: changes.name });
  }
  if (changes.description !== undefined && changes.description !== folder.description) {
    next.description = changes.description;
    next.rendered_description = renderDescription(changes.description, directory);
    updates.push({ description: next.description, rendered_description: next.rendered_description });
  }
  if (changes.isArchived !== undefined && changes.isArchived !== folder.is_archived) {
    if (changes.isArchived && (await db.channels.where('folder_id').equals(folderId).count()) > 0) {
      throw badRequest('You need to remove all the channels from this folder to archive it.');
    }
    next.is_archived = changes.isArchived;
    updates.push({ is_archived: changes.isArchived });
  }
  if (updates.length === 0) return;
  await db.channel_folders.put(next);
  for (const data of updates) {
    scope.notify(folderNotice(directory, { type: 'channel_folder', op: 'update', channel_folder_id: folderId, data }));
  }
}

/** Puts the folders in the order given, which must name every folder once. */
export async function reorderChannelFolders(scope: CallerScope, order: number[]): Promise<void> {
  const { db, directory } = scope;
  const folders = await db.channel_folders.toArray();
  const named = new Set(order);
  if (named.size !== order.length || named.size !== folders.length || folders.some((f) => !named.has(f.id))) {
    throw badRequest('Invalid order mapping.');
  }
  await db.channel_folders.bulkPut(folders.map((f) => ({ ...f, order: order.indexOf(f.id) })));
  scope.notify(folderNotice(directory, { type: 'channel_folder', op: 'reorder', order }));
}
