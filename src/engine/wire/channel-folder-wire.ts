import type { ChannelFolderRow } from '../storage/rows.ts';

/** A channel folder as the API shows it (spec 2.7, with upstream's remaining fields). */
export function channelFolderToWire(folder: ChannelFolderRow): Record<string, unknown> {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.rendered_description,
    order: folder.order,
    date_created: folder.date_created,
    creator_id: folder.creator_id,
    is_archived: folder.is_archived,
  };
}

/** Folders in their display order (`order`, then id). */
export const byFolderOrder = (a: ChannelFolderRow, b: ChannelFolderRow): number => a.order - b.order || a.id - b.id;
