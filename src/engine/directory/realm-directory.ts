import type { Dexie, Transaction } from 'dexie';
import { ApiError } from '../errors/api-error.ts';
import type { MarkdownRealm } from '../markdown/markdown-realm.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { ChannelRow, LinkifierRow, RealmEmojiRow, RealmRow, UserGroupRow, UserRow } from '../storage/rows.ts';

/**
 * The tables a directory is read from, and those of the reads memoised beside it (`memoised`):
 * a write to any of them makes the cached directory and its memos stale.
 */
const DIRECTORY_TABLES = [
  'realm',
  'users',
  'channels',
  'user_groups',
  'realm_emoji',
  'linkifiers',
  'subscriptions',
  'alert_words',
  'muted_users',
  'user_topics',
  'profile_values',
] as const;

interface DirectoryCache {
  /** Bumped by every write to a directory table, and again when the writing transaction ends. */
  generation: number;
  /** Transactions that wrote to a directory table and have neither committed nor aborted. */
  openWriters: Set<Transaction>;
  entry: { generation: number; directory: RealmDirectory; memos: Map<string, unknown> } | null;
}

/** One cache per watched database (the Dexie instance behind transaction-bound views). */
const caches = new WeakMap<Dexie, DirectoryCache>();

/**
 * The realm's small tables (users, channels, groups, custom emoji, linkifiers) read once into
 * lookup maps, for one action or one page of results. Messages are never loaded this way.
 * Once the database is watched (`watchDirectoryTables`), the last directory read is reused
 * until one of its tables is written, so a send or a page fetch does not re-read and re-clone
 * every user and channel.
 * Callers share that instance: they must not change its rows in place without writing them.
 */
export class RealmDirectory {
  readonly realm: RealmRow;
  readonly users = new Map<number, UserRow>();
  readonly usersByEmail = new Map<string, UserRow>();
  readonly usersByApiKey = new Map<string, UserRow>();
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
      this.usersByApiKey.set(user.api_key, user);
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
    const cache = caches.get(db.users.db);
    if (!cache) return RealmDirectory.read(db);
    const { generation } = cache;
    if (cache.entry?.generation === generation) return cache.entry.directory;
    const directory = await RealmDirectory.read(db);
    // Kept only if no write happened while reading and none is pending: it then shows committed state.
    if (cache.generation === generation && cache.openWriters.size === 0) cache.entry = { generation, directory, memos: new Map() };
    return directory;
  }

  /** The cached directory, if it shows the committed state (no write to its tables since, none open); else undefined. */
  static current(db: RealmDatabase): RealmDirectory | undefined {
    return currentEntry(db)?.directory;
  }

  private static async read(db: RealmDatabase): Promise<RealmDirectory> {
    const [realm, users, channels, groups, emoji, linkifiers] = await Promise.all([
      db.realm.get(1),
      db.users.toArray(),
      db.channels.toArray(),
      db.user_groups.toArray(),
      db.realm_emoji.toArray(),
      db.linkifiers.toArray(),
    ]);
    if (!realm) throw new ApiError('This server has no realm loaded yet', { code: 'SERVER_NOT_READY', status: 500 });
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
      defaultCodeBlockLanguage: this.realm.default_code_block_language ?? '',
    };
  }
}

/**
 * A read of the watched tables (`DIRECTORY_TABLES`), kept under `key` for as long as the cached
 * directory is current: the same rule as the directory's, so it shows committed state and is
 * dropped by any write to those tables. While a transaction that wrote them is open, or with
 * no cache, `load` runs every time. The value is shared: callers must not change it.
 */
export async function memoised<T>(db: RealmDatabase, key: string, load: () => Promise<T>): Promise<T> {
  const entry = currentEntry(db);
  if (!entry) return load();
  if (entry.memos.has(key)) return entry.memos.get(key) as T;
  const value = await load();
  if (currentEntry(db) === entry) entry.memos.set(key, value);
  return value;
}

/** What `memoised` keeps under `key`, if it shows the committed state; else undefined (nothing read). */
export function peekMemo<T>(db: RealmDatabase, key: string): T | undefined {
  return currentEntry(db)?.memos.get(key) as T | undefined;
}

/** The cache's entry, if it is current and no writer of its tables is open. */
function currentEntry(db: RealmDatabase): DirectoryCache['entry'] {
  const cache = caches.get(db.users.db);
  const entry = cache?.entry;
  return cache && entry && entry.generation === cache.generation && cache.openWriters.size === 0 ? entry : null;
}

/**
 * Turns on the directory cache for `db`. Call it before any transaction writes the directory
 * tables (the engine does so when it is created): a write the hooks did not see could
 * otherwise be cached. Every write invalidates, and caching stays off until the writing
 * transaction ends, since a directory read inside it could hold rows that are rolled back.
 */
export function watchDirectoryTables(db: RealmDatabase): void {
  if (caches.has(db)) return;
  const cache: DirectoryCache = { generation: 0, openWriters: new Set(), entry: null };
  caches.set(db, cache);
  const invalidate = () => {
    cache.generation++;
    cache.entry = null;
  };
  const onWrite = (tx: Transaction): void => {
    invalidate();
    if (cache.openWriters.has(tx)) return;
    cache.openWriters.add(tx);
    const end = () => {
      if (cache.openWriters.delete(tx)) invalidate();
    };
    tx.on('complete', end);
    tx.on('abort', end);
  };
  for (const name of DIRECTORY_TABLES) {
    const table = db.table(name);
    // Hooks must return undefined: a value would become a generated key or extra changes.
    table.hook('creating', (_key, _row, tx) => void onWrite(tx));
    table.hook('updating', (_changes, _key, _row, tx) => void onWrite(tx));
    table.hook('deleting', (_key, _row, tx) => void onWrite(tx));
  }
}
