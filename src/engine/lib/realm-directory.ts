import type { MarkdownRealm } from '../markdown/render-message.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { ChannelRow, LinkifierRow, RealmEmojiRow, RealmRow, UserGroupRow, UserRow } from '../storage/rows.ts';

/**
 * The realm's small tables (users, channels, groups, custom emoji, linkifiers) read once into
 * lookup maps, for one action or one page of results. Messages are never loaded this way.
 */
export class RealmDirectory {
  readonly realm: RealmRow;
  readonly users = new Map<number, UserRow>();
  readonly usersByEmail = new Map<string, UserRow>();
  readonly channels = new Map<number, ChannelRow>();
  readonly channelsByName = new Map<string, ChannelRow>();
  readonly groups = new Map<number, UserGroupRow>();
  readonly groupsByName = new Map<string, UserGroupRow>();
  readonly emoji: RealmEmojiRow[];
  readonly linkifiers: LinkifierRow[];

  private constructor(
    realm: RealmRow,
    users: UserRow[],
    channels: ChannelRow[],
    groups: UserGroupRow[],
    emoji: RealmEmojiRow[],
    linkifiers: LinkifierRow[],
  ) {
    this.realm = realm;
    for (const user of users) {
      this.users.set(user.id, user);
      this.usersByEmail.set(user.email_key, user);
    }
    for (const channel of channels) {
      this.channels.set(channel.id, channel);
      this.channelsByName.set(channel.name_key, channel);
    }
    for (const group of groups) {
      this.groups.set(group.id, group);
      this.groupsByName.set(group.name_key, group);
    }
    this.emoji = emoji;
    this.linkifiers = linkifiers.sort((a, b) => a.order - b.order);
  }

  static async load(db: RealmDatabase): Promise<RealmDirectory> {
    const [realm, users, channels, groups, emoji, linkifiers] = await Promise.all([
      db.realm.get(1),
      db.users.toArray(),
      db.channels.toArray(),
      db.user_groups.toArray(),
      db.realm_emoji.toArray(),
      db.linkifiers.toArray(),
    ]);
    if (!realm) throw new Error('no realm loaded');
    return new RealmDirectory(realm, users, channels, groups, emoji, linkifiers);
  }

  user(id: number): UserRow {
    const user = this.users.get(id);
    if (!user) throw new Error(`unknown user ${id}`);
    return user;
  }

  /** A user by real email or by the dummy `user{id}@{host}` address (case-insensitive). */
  userByApiEmail(email: string): UserRow | undefined {
    const key = email.trim().toLowerCase();
    const byReal = this.usersByEmail.get(key);
    if (byReal) return byReal;
    const dummy = /^user(\d+)@(.+)$/.exec(key);
    if (dummy && dummy[2] === this.realm.host.toLowerCase()) return this.users.get(Number(dummy[1]));
    return undefined;
  }

  channelByName(name: string): ChannelRow | undefined {
    return this.channelsByName.get(name.trim().toLowerCase());
  }

  /** The lookups the Markdown renderer needs, answered from these maps. */
  markdownRealm(): MarkdownRealm {
    return {
      host: this.realm.host,
      usersByName: (name) => {
        const key = name.toLowerCase();
        return [...this.users.values()].filter((u) => !u.is_system_bot && u.full_name.toLowerCase() === key);
      },
      userById: (id) => {
        const user = this.users.get(id);
        return user && !user.is_system_bot ? user : undefined;
      },
      groupByName: (name) => {
        const group = this.groupsByName.get(name.toLowerCase());
        return group && !group.deactivated ? { id: group.id, name: group.name } : undefined;
      },
      channelByName: (name) => {
        const channel = this.channelByName(name);
        return channel && !channel.is_archived ? { id: channel.id, name: channel.name } : undefined;
      },
      realmEmoji: (name) => {
        const emoji = this.emoji.find((e) => e.name === name && !e.deactivated);
        return emoji ? { id: String(emoji.id), name: emoji.name, source_url: emoji.source_url } : undefined;
      },
      linkifiers: this.linkifiers,
    };
  }
}
