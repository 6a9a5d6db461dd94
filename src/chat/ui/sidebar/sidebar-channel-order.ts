import type { Subscription } from '../../api/wire-types.ts';
import type { RealmState } from '../../state/realm-state.ts';

export interface SidebarChannelGroup {
  key: string;
  title: string;
  channels: Subscription[];
}

/** The sidebar's subscribed channels, as upstream groups them: pinned first, then by channel folder, then the rest; each group by name. */
export function sidebarChannelGroups(realm: RealmState): SidebarChannelGroup[] {
  const subs = [...realm.subscriptions.value.values()].filter((sub) => !sub.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const groups: SidebarChannelGroup[] = [];
  const pinned = subs.filter((sub) => sub.pin_to_top);
  if (pinned.length > 0) groups.push({ key: 'pinned', title: 'Pinned', channels: pinned });
  const folders = realm.folders.value.filter((f) => !f.is_archived);
  for (const folder of folders) {
    const channels = subs.filter((sub) => !sub.pin_to_top && sub.folder_id === folder.id);
    if (channels.length > 0) groups.push({ key: `folder-${folder.id}`, title: folder.name, channels });
  }
  const folderIds = new Set(folders.map((f) => f.id));
  const rest = subs.filter((sub) => !sub.pin_to_top && (sub.folder_id === null || !folderIds.has(sub.folder_id)));
  if (rest.length > 0) groups.push({ key: 'other', title: groups.length > 0 ? 'Other channels' : 'Channels', channels: rest });
  return groups;
}
