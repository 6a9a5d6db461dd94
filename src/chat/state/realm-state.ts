import { computed, signal } from '@preact/signals';
import type {
  Channel,
  ChannelFolder,
  InitialState,
  MutedUser,
  NavigationView,
  Reminder,
  SavedSnippet,
  ScheduledMessage,
  ServerEvent,
  Subscription,
  User,
  WireUserStatus,
} from '../api/wire-types.ts';
import { sortedIds } from '../narrow/narrow.ts';
import { GroupPermissions, type RealmGroupSetting } from './group-permissions.ts';
import { ProfileFieldsState } from './profile-fields.ts';
import { UnreadIndex } from './unread-index.ts';

export interface RecentDm {
  /** Participants besides me, sorted; me alone for notes to self. */
  userIds: number[];
  maxMessageId: number;
}

/** Someone typing in a conversation, until `expiresAt` (ms) unless they stop first. */
export interface TypingEntry {
  conversation: string;
  userId: number;
  expiresAt: number;
}

/** What a user's status says: a text, an emoji, or both. */
export interface UserStatus {
  text: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
}

/** A wire status as the app keeps it; null when it says nothing. */
function userStatusOf(status: WireUserStatus): UserStatus | null {
  const kept = { text: status.status_text ?? '', emojiName: status.emoji_name ?? '', emojiCode: status.emoji_code ?? '', reactionType: status.reaction_type ?? 'unicode_emoji' };
  return kept.text || kept.emojiName ? kept : null;
}

/** Upstream's visibility policies for a topic. */
export const TOPIC_MUTED = 1;
export const TOPIC_UNMUTED = 2;
export const TOPIC_FOLLOWED = 3;

function byId<T>(items: readonly T[], id: (item: T) => number): Map<number, T> {
  return new Map(items.map((item) => [id(item), item]));
}

function mutedSet(muted: readonly MutedUser[]): ReadonlySet<number> {
  return new Set(muted.map((user) => user.id));
}

function topicKey(channelId: number, topic: string): string {
  return `${channelId}:${topic.toLowerCase()}`;
}

/**
 * Everything the app knows about the realm as the logged-in user sees it, from /register's
 * initial state, kept current by {@link applyEvent}. Each piece is a signal: components that
 * read it redraw when it changes, and nothing else does.
 */
export class RealmState {
  readonly me: number;
  readonly realmName = signal('');
  /** The language of code blocks that name none (`default_code_block_language`); empty: none. */
  readonly defaultCodeLanguage = signal('');
  readonly emptyTopicName = signal('general chat');
  readonly maxMessageLength = signal(10000);
  readonly maxTopicLength = signal(60);
  readonly maxFileUploadSizeMib = signal(25);
  readonly users = signal(new Map<number, User>());
  readonly subscriptions = signal(new Map<number, Subscription>());
  readonly channels = signal(new Map<number, Channel>());
  readonly folders = signal<ChannelFolder[]>([]);
  readonly unread = signal(new UnreadIndex());
  readonly starred = signal(new Set<number>());
  readonly recentDms = signal<RecentDm[]>([]);
  readonly userTopics = signal(new Map<string, number>());
  readonly navigationViews = signal<NavigationView[]>([]);
  readonly savedSnippets = signal<SavedSnippet[]>([]);
  readonly scheduledMessages = signal<ScheduledMessage[]>([]);
  readonly reminders = signal<Reminder[]>([]);
  /**
   * The people I muted: their messages come read and hide behind a notice, their one-on-one DMs
   * leave every list (upstream's `muted_users`).
   */
  readonly mutedUsers = signal<ReadonlySet<number>>(new Set());
  /** Words that, in anyone's message, alert me as a mention does. */
  readonly alertWords = signal<string[]>([]);
  readonly realmEmoji = signal<InitialState['realm_emoji']>({});
  readonly settings = signal<InitialState['user_settings']>({ timezone: '', color_scheme: 1, enter_sends: false, twenty_four_hour_time: false });
  readonly typing = signal<TypingEntry[]>([]);
  /** Statuses that say something (a text, an emoji), by user id. */
  readonly userStatus = signal<ReadonlyMap<number, UserStatus>>(new Map());
  readonly permissions = signal({ isAdmin: false, isOwner: false, isModerator: false, isGuest: false, canCreateChannels: false, canInvite: false });
  /** Realm switches the app follows: whether edit history and read receipts may be seen. */
  readonly realmFlags = signal({ allowEditHistory: true, readReceipts: false });
  readonly limits = signal({ editSeconds: null as number | null, allowEditing: true, typingExpiryMs: 15000, typingWaitMs: 10000, typingStopMs: 5000 });

  /** User groups and the realm's permission settings: what the user may do. */
  readonly groupPermissions = new GroupPermissions();
  /** The realm's custom profile fields and everyone's values of them. */
  readonly profileFields = new ProfileFieldsState();

  readonly meUser = computed(() => this.users.value.get(this.me));
  readonly isAdmin = computed(() => this.permissions.value.isAdmin);

  constructor(initial: InitialState) {
    this.me = initial.user_id;
    this.reset(initial);
  }

  /** Whether the logged-in user holds one of the realm's permission settings (upstream's group settings). */
  may(setting: RealmGroupSetting): boolean {
    return this.groupPermissions.holds(this.me, setting);
  }

  /** Takes a fresh initial state whole (after a new registration). */
  reset(state: InitialState): void {
    this.groupPermissions.reset(state);
    this.profileFields.reset(state);
    this.realmName.value = state.realm_name;
    this.defaultCodeLanguage.value = state.realm_default_code_block_language ?? '';
    this.emptyTopicName.value = state.realm_empty_topic_display_name;
    this.maxMessageLength.value = state.max_message_length;
    this.maxTopicLength.value = state.max_topic_length;
    this.maxFileUploadSizeMib.value = state.max_file_upload_size_mib;
    this.users.value = byId([...state.realm_users, ...state.realm_non_active_users, ...state.cross_realm_bots], (user) => user.user_id);
    this.subscriptions.value = byId(state.subscriptions, (sub) => sub.stream_id);
    this.channels.value = byId([...state.streams, ...state.subscriptions], (channel) => channel.stream_id);
    this.folders.value = [...state.channel_folders].sort((a, b) => a.order - b.order);
    this.unread.value = UnreadIndex.fromRegister(state.unread_msgs, this.me);
    this.starred.value = new Set(state.starred_messages);
    this.recentDms.value = state.recent_private_conversations.map((dm) => ({
      userIds: dm.user_ids.length > 0 ? [...dm.user_ids].sort((a, b) => a - b) : [this.me],
      maxMessageId: dm.max_message_id,
    }));
    this.userTopics.value = new Map(state.user_topics.map((topic) => [topicKey(topic.stream_id, topic.topic_name), topic.visibility_policy]));
    this.navigationViews.value = state.navigation_views;
    this.savedSnippets.value = state.saved_snippets;
    this.scheduledMessages.value = state.scheduled_messages;
    this.reminders.value = state.reminders ?? [];
    this.alertWords.value = state.alert_words ?? [];
    this.mutedUsers.value = mutedSet(state.muted_users ?? []);
    this.realmEmoji.value = state.realm_emoji;
    this.settings.value = state.user_settings;
    this.permissions.value = {
      isAdmin: state.is_admin,
      isOwner: state.is_owner,
      isModerator: state.is_moderator,
      isGuest: state.is_guest,
      canCreateChannels: state.can_create_streams,
      canInvite: state.can_invite_others_to_realm,
    };
    this.userStatus.value = new Map(
      Object.entries(state.user_status ?? {}).flatMap(([id, status]) => {
        const kept = userStatusOf(status);
        return kept ? [[Number(id), kept] as const] : [];
      }),
    );
    this.realmFlags.value = { allowEditHistory: state.realm_allow_edit_history ?? true, readReceipts: state.realm_enable_read_receipts ?? false };
    this.limits.value = {
      editSeconds: state.realm_message_content_edit_limit_seconds,
      allowEditing: state.realm_allow_message_editing,
      typingExpiryMs: state.server_typing_started_expiry_period_milliseconds,
      typingWaitMs: state.server_typing_started_wait_period_milliseconds,
      typingStopMs: state.server_typing_stopped_wait_period_milliseconds,
    };
  }

  userName(id: number): string {
    return this.users.value.get(id)?.full_name ?? `Unknown user ${id}`;
  }

  isMuted(id: number): boolean {
    return this.mutedUsers.value.has(id);
  }

  /** A person as lists of conversations name them: a muted one as "Muted user", as upstream. */
  listedName(id: number): string {
    return this.isMuted(id) ? 'Muted user' : this.userName(id);
  }

  /** A one-on-one DM with someone I muted: upstream hides it from every list. */
  isMutedDm(userIds: readonly number[]): boolean {
    return userIds.length === 1 && this.isMuted(userIds[0]);
  }

  channelName(id: number): string | undefined {
    return this.channels.value.get(id)?.name;
  }

  /** A conversation as the app names it in lists: `#channel › topic`, or the DM's people. */
  conversationName(where: { channelId: number; topic: string } | { userIds: readonly number[] }): string {
    if ('userIds' in where) return where.userIds.map((id) => this.listedName(id)).join(', ');
    return `#${this.channelName(where.channelId) ?? where.channelId} › ${where.topic || this.emptyTopicName.value}`;
  }

  /**
   * Whether I may subscribe myself to a channel I am not in, as the server decides it: any
   * channel I can read, or a private one whose `can_add_subscribers_group` holds me (never as a
   * guest). A server that does not say is taken to allow; its answer is what counts.
   */
  maySubscribe(channel: Channel): boolean {
    if (!channel.invite_only) return true;
    if (this.permissions.value.isGuest) return false;
    const value = channel.can_add_subscribers_group;
    return value === undefined || this.groupPermissions.inSetting(this.me, value);
  }

  /** Whether I may post in the channel (its `can_send_message_group`), as the server decides it; unknown: allowed. */
  mayPost(channelId: number): boolean {
    const value = this.channels.value.get(channelId)?.can_send_message_group;
    return value === undefined || this.groupPermissions.inSetting(this.me, value);
  }

  /** Whether I may delete a message (`GroupPermissions.mayDelete`): my own or my bot's counts as mine. */
  mayDelete(message: { sender_id: number; stream_id?: number }): boolean {
    const channel = message.stream_id === undefined ? undefined : this.channels.value.get(message.stream_id);
    return this.groupPermissions.mayDelete(this.me, {
      own: message.sender_id === this.me || this.users.value.get(message.sender_id)?.bot_owner_id === this.me,
      channel: channel && { any: channel.can_delete_any_message_group, own: channel.can_delete_own_message_group },
    });
  }

  topicPolicy(channelId: number, topic: string): number {
    return this.userTopics.value.get(topicKey(channelId, topic)) ?? 0;
  }

  /** Applies one event that changes realm state (message events are the message lists' business). */
  applyEvent(event: ServerEvent): void {
    this.groupPermissions.applyEvent(event);
    this.profileFields.applyEvent(event);
    switch (event.type) {
      case 'realm_user':
        this.#realmUser(event);
        break;
      case 'subscription':
        this.#subscription(event);
        break;
      case 'stream':
        this.#stream(event);
        break;
      case 'channel_folder':
        this.#channelFolder(event);
        break;
      case 'user_topic':
        this.userTopics.value = new Map(this.userTopics.value).set(
          topicKey(event.stream_id as number, event.topic_name as string),
          event.visibility_policy as number,
        );
        break;
      case 'navigation_view':
        this.#navigationView(event);
        break;
      case 'saved_snippets':
        if (event.op === 'add') this.savedSnippets.value = [...this.savedSnippets.value, event.saved_snippet as SavedSnippet];
        if (event.op === 'update') this.savedSnippets.value = this.savedSnippets.value.map((s) => (s.id === event.saved_snippet.id ? event.saved_snippet : s));
        if (event.op === 'remove') this.savedSnippets.value = this.savedSnippets.value.filter((s) => s.id !== event.saved_snippet_id);
        break;
      case 'scheduled_messages':
        this.#scheduledMessages(event);
        break;
      case 'alert_words':
        this.alertWords.value = event.alert_words as string[];
        break;
      case 'muted_users':
        this.mutedUsers.value = mutedSet(event.muted_users as MutedUser[]);
        break;
      case 'reminders':
        if (event.op === 'add') this.reminders.value = [...this.reminders.value, ...(event.reminders as Reminder[])];
        if (event.op === 'remove') this.reminders.value = this.reminders.value.filter((reminder) => reminder.reminder_id !== event.reminder_id);
        break;
      case 'user_settings':
        if (event.op === 'update') this.settings.value = { ...this.settings.value, [event.property as string]: event.value };
        break;
      case 'realm':
        this.#realm(event);
        break;
      case 'realm_emoji':
        if (event.op === 'update') this.realmEmoji.value = event.realm_emoji;
        break;
      case 'typing':
        this.#typing(event);
        break;
      case 'user_status':
        this.#userStatus(event);
        break;
    }
  }

  /** The custom emoji that may be used (not deactivated), as the picker, suggestions and admin list show them. */
  activeRealmEmoji(): InitialState['realm_emoji'][string][] {
    return Object.values(this.realmEmoji.value).filter((emoji) => !emoji.deactivated);
  }

  /** Upstream tells a realm setting either as `update` (one property) or `update_dict` (several). */
  #realm(event: ServerEvent): void {
    const changed: Record<string, unknown> = event.op === 'update' ? { [event.property as string]: event.value } : event.op === 'update_dict' ? (event.data ?? {}) : {};
    if (typeof changed.name === 'string') this.realmName.value = changed.name;
    if (typeof changed.default_code_block_language === 'string') this.defaultCodeLanguage.value = changed.default_code_block_language;
    if (typeof changed.allow_edit_history === 'boolean') this.realmFlags.value = { ...this.realmFlags.value, allowEditHistory: changed.allow_edit_history };
    if (typeof changed.enable_read_receipts === 'boolean') this.realmFlags.value = { ...this.realmFlags.value, readReceipts: changed.enable_read_receipts };
    if (typeof changed.allow_message_editing === 'boolean') this.limits.value = { ...this.limits.value, allowEditing: changed.allow_message_editing };
  }

  /** An event carries only what changed: the rest of the status stays. */
  #userStatus(event: ServerEvent): void {
    const id = event.user_id as number;
    const known = this.userStatus.value.get(id);
    const merged = userStatusOf({
      status_text: event.status_text ?? known?.text,
      emoji_name: event.emoji_name ?? known?.emojiName,
      emoji_code: event.emoji_code ?? known?.emojiCode,
      reaction_type: event.reaction_type ?? known?.reactionType,
    });
    const next = new Map(this.userStatus.value);
    if (merged) next.set(id, merged);
    else next.delete(id);
    this.userStatus.value = next;
  }

  #realmUser(event: ServerEvent): void {
    const users = new Map(this.users.value);
    const person = event.person as Partial<User> & { user_id: number };
    // A profile value's change is profileFields' alone: the user object stays as it was.
    if ('custom_profile_field' in person) return;
    if (event.op === 'add') users.set(person.user_id, person as User);
    else if (event.op === 'remove') {
      const known = users.get(person.user_id);
      if (known) users.set(person.user_id, { ...known, is_active: false });
    } else if (event.op === 'update') {
      const known = users.get(person.user_id);
      if (!known) return;
      const updated = { ...known, ...person } as User;
      if (person.role !== undefined) {
        updated.is_owner = person.role === 100;
        updated.is_admin = person.role <= 200;
        updated.is_guest = person.role === 600;
      }
      users.set(person.user_id, updated);
      if (person.user_id === this.me && person.role !== undefined) {
        const role = person.role;
        this.permissions.value = { ...this.permissions.value, isOwner: role === 100, isAdmin: role <= 200, isModerator: role === 300, isGuest: role === 600 };
      }
    }
    this.users.value = users;
  }

  #subscription(event: ServerEvent): void {
    const subs = new Map(this.subscriptions.value);
    if (event.op === 'add') {
      const channels = new Map(this.channels.value);
      for (const sub of event.subscriptions as Subscription[]) {
        subs.set(sub.stream_id, sub);
        channels.set(sub.stream_id, sub);
      }
      this.channels.value = channels;
    } else if (event.op === 'remove') {
      for (const sub of event.subscriptions as { stream_id: number }[]) subs.delete(sub.stream_id);
    } else if (event.op === 'update') {
      const sub = subs.get(event.stream_id as number);
      if (!sub) return;
      subs.set(sub.stream_id, { ...sub, [event.property as string]: event.value });
      if (event.property === 'in_home_view') subs.set(sub.stream_id, { ...sub, is_muted: !event.value });
    } else {
      return;
    }
    this.subscriptions.value = subs;
  }

  #stream(event: ServerEvent): void {
    const channels = new Map(this.channels.value);
    if (event.op === 'create') {
      for (const channel of event.streams as Channel[]) channels.set(channel.stream_id, channel);
    } else if (event.op === 'delete') {
      // Without the archived_channels capability an archived channel arrives as a delete that
      // says is_archived; any other delete means this user can no longer see the channel.
      const subs = new Map(this.subscriptions.value);
      for (const channel of event.streams as Channel[]) {
        const known = channels.get(channel.stream_id);
        if (!channel.is_archived) channels.delete(channel.stream_id);
        else if (known) channels.set(channel.stream_id, { ...known, is_archived: true });
        // The sidebar lists subscriptions: an archived one leaves it, as upstream's does.
        const sub = subs.get(channel.stream_id);
        if (sub && channel.is_archived) subs.set(channel.stream_id, { ...sub, is_archived: true });
      }
      this.subscriptions.value = subs;
    } else if (event.op === 'update') {
      const id = event.stream_id as number;
      const property = event.property as string;
      const known = channels.get(id);
      if (known) channels.set(id, { ...known, [property]: event.value, ...(event.rendered_description ? { rendered_description: event.rendered_description } : {}) });
      const sub = this.subscriptions.value.get(id);
      if (sub) this.subscriptions.value = new Map(this.subscriptions.value).set(id, { ...sub, [property]: event.value });
    }
    this.channels.value = channels;
  }

  #channelFolder(event: ServerEvent): void {
    if (event.op === 'add') this.folders.value = [...this.folders.value, event.channel_folder as ChannelFolder];
    if (event.op === 'update') {
      this.folders.value = this.folders.value.map((folder) => (folder.id === event.channel_folder_id ? { ...folder, ...event.data } : folder));
    }
    if (event.op === 'reorder') {
      const order = event.order as number[];
      this.folders.value = [...this.folders.value].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    }
  }

  #navigationView(event: ServerEvent): void {
    const views = this.navigationViews.value;
    if (event.op === 'add') this.navigationViews.value = [...views, event.navigation_view as NavigationView];
    if (event.op === 'update') this.navigationViews.value = views.map((view) => (view.fragment === event.fragment ? { ...view, ...event.data } : view));
    if (event.op === 'remove') this.navigationViews.value = views.filter((view) => view.fragment !== event.fragment);
  }

  #scheduledMessages(event: ServerEvent): void {
    const list = this.scheduledMessages.value;
    if (event.op === 'add') this.scheduledMessages.value = [...list, ...(event.scheduled_messages as ScheduledMessage[])];
    if (event.op === 'update') {
      const updated = event.scheduled_message as ScheduledMessage;
      this.scheduledMessages.value = list.map((m) => (m.scheduled_message_id === updated.scheduled_message_id ? updated : m));
    }
    if (event.op === 'remove') this.scheduledMessages.value = list.filter((m) => m.scheduled_message_id !== event.scheduled_message_id);
  }

  #typing(event: ServerEvent): void {
    const userId = (event.sender as { user_id: number }).user_id;
    // Upstream shows no one typing whom I muted.
    if (userId === this.me || this.isMuted(userId)) return;
    const conversation =
      event.message_type === 'stream'
        ? `topic:${event.stream_id}:${String(event.topic).toLowerCase()}`
        : `dm:${sortedIds((event.recipients as { user_id: number }[]).map((r) => r.user_id).filter((id) => id !== this.me))}`;
    const others = this.typing.value.filter((entry) => !(entry.userId === userId && entry.conversation === conversation));
    this.typing.value = event.op === 'start' ? [...others, { conversation, userId, expiresAt: Date.now() + this.limits.value.typingExpiryMs }] : others;
  }

  /** Per channel, bumped whenever a message arrives there, moves in or out, or goes: its topic list may have changed. */
  readonly topicChanges = signal<ReadonlyMap<number, number>>(new Map());

  noteTopicChange(...channelIds: (number | undefined)[]): void {
    const next = new Map(this.topicChanges.value);
    for (const id of channelIds) if (id !== undefined) next.set(id, (next.get(id) ?? 0) + 1);
    this.topicChanges.value = next;
  }

  /** Notes a message's conversation as recent (the sidebar's DM list). */
  noteDm(userIds: number[], messageId: number): void {
    const key = userIds.join(',');
    const others = this.recentDms.value.filter((dm) => dm.userIds.join(',') !== key);
    this.recentDms.value = [{ userIds, maxMessageId: messageId }, ...others].sort((a, b) => b.maxMessageId - a.maxMessageId);
  }
}

