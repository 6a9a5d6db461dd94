import { channelFoldersSection, customProfileFieldsSection, defaultStreamsSection, linkifiersSection, playgroundsSection, realmEmojiSection } from './realm-objects.ts';
import {
  alertWordsSection,
  draftsSection,
  mutedUsersSection,
  userStatusSection,
  EMPTY_SECTIONS,
  mutedTopicsSection,
  navigationViewsSection,
  presenceSection,
  savedSnippetsSection,
  starredMessagesSection,
  userTopicsSection,
} from './personal-state.ts';
import { realmSection } from './realm-settings.ts';
import { realmBotsSection, realmUserSection } from './realm-users.ts';
import { remindersSection, scheduledMessagesSection } from './scheduled-messages.ts';
import { recentConversationsSection } from './recent-conversations.ts';
import type { StateContext } from './state-context.ts';
import { subscriptionSection, streamSection } from './subscriptions.ts';
import { maxMessageIdSection, unreadSection } from './unread-messages.ts';
import { userGroupsSection } from './user-groups.ts';
import { legacySettingsSection, realmUserSettingsDefaults } from '../settings/user-settings.ts';

type Section = (ctx: StateContext) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** Each initial-state section, under the event type that names it in `fetch_event_types`. */
const SECTIONS: Record<string, Section> = {
  message: maxMessageIdSection,
  realm: (ctx) => realmSection(ctx.directory.realm, ctx.serverGeneration),
  realm_user: realmUserSection,
  realm_bot: realmBotsSection,
  subscription: subscriptionSection,
  stream: streamSection,
  recent_private_conversations: recentConversationsSection,
  realm_user_groups: userGroupsSection,
  user_settings: (ctx) => ({ user_settings: ctx.settings }),
  realm_user_settings_defaults: (ctx) => ({ realm_user_settings_defaults: realmUserSettingsDefaults(ctx.directory.realm) }),
  realm_linkifiers: linkifiersSection,
  realm_emoji: realmEmojiSection,
  realm_playgrounds: playgroundsSection,
  custom_profile_fields: customProfileFieldsSection,
  user_topic: userTopicsSection,
  default_streams: defaultStreamsSection,
  channel_folders: channelFoldersSection,
  starred_messages: starredMessagesSection,
  navigation_views: navigationViewsSection,
  saved_snippets: savedSnippetsSection,
  drafts: draftsSection,
  alert_words: alertWordsSection,
  muted_users: mutedUsersSection,
  user_status: userStatusSection,
  presence: presenceSection,
  scheduled_messages: scheduledMessagesSection,
  reminders: remindersSection,
  ...EMPTY_SECTIONS,
};

/**
 * The initial state for the wanted sections (null: all). Must run inside one read snapshot,
 * with `ctx.db` bound to it (snapshot-db.ts), so that every section describes the same moment.
 */
export async function fetchInitialState(ctx: StateContext, wanted: ReadonlySet<string> | null): Promise<Record<string, unknown>> {
  const want = (type: string) => wanted === null || wanted.has(type);
  const builds: Section[] = Object.entries(SECTIONS).filter(([type]) => want(type)).map(([, build]) => build);
  if (want('message') && want('update_message_flags')) builds.push(unreadSection);
  // Superseded by user_topic; upstream sends it only to clients that do not ask for that.
  if (want('muted_topics') && !(wanted?.has('user_topic') ?? false)) builds.push(mutedTopicsSection);
  // The sections read side by side in the one snapshot: each IndexedDB read is a round trip to
  // the browser's database, and one after another they added up (~46 ms for the demo realm).
  const sections = await Promise.all(builds.map((build) => build(ctx)));
  const state: Record<string, unknown> = {};
  for (const section of sections) Object.assign(state, section);
  if (!ctx.capabilities.user_settings_object) {
    for (const legacy of ['update_display_settings', 'update_global_notifications'] as const) {
      if (want(legacy)) Object.assign(state, legacySettingsSection(ctx.settings, legacy));
    }
  }
  return state;
}

