import type { NotificationDefaults } from '../wire/subscription-wire.ts';
import type { RealmRow, UserRow } from '../storage/rows.ts';
import type { RenderOptions } from '../markdown/render-message.ts';

/** Every personal setting upstream lists, at the value a new account starts with. */
export const USER_SETTING_DEFAULTS: Readonly<Record<string, unknown>> = {
  twenty_four_hour_time: false,
  dense_mode: true,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_suggest_update_timezone: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  web_home_view: 'inbox',
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 2,
  web_animate_image_previews: 'on_hover',
  web_stream_unreads_count_display_policy: 2,
  hide_ai_features: false,
  enter_sends: false,
  enable_drafts_synchronization: true,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  presence_enabled: true,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  allow_private_data_export: false,
  web_navigate_to_sent_message: true,
};

/** Read-only lists the settings object carries along with the settings. */
export const AVAILABLE_NOTIFICATION_SOUNDS = ['chime', 'ding', 'zulip'];
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

/** Settings the legacy `update_display_settings` section flattens onto the response. */
export const LEGACY_DISPLAY_SETTINGS = [
  'color_scheme',
  'default_language',
  'demote_inactive_streams',
  'dense_mode',
  'emojiset',
  'enable_drafts_synchronization',
  'fluid_layout_width',
  'web_home_view',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'timezone',
  'translate_emoticons',
  'twenty_four_hour_time',
  'receives_typing_notifications',
  'web_suggest_update_timezone',
  'enter_sends',
  'emojiset_choices',
];

/** Settings the legacy `update_global_notifications` section flattens onto the response. */
export const LEGACY_NOTIFICATION_SETTINGS = [
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'email_notifications_batching_period_seconds',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_stream_audible_notifications',
  'wildcard_mentions_notify',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy',
  'presence_enabled',
  'available_notification_sounds',
];

/** The `user_settings` object: stored values over the defaults (spectators get the defaults). */
export function userSettingsObject(user: UserRow | null, realm: RealmRow): Record<string, unknown> {
  return { ...USER_SETTING_DEFAULTS, ...user?.settings, timezone: user?.timezone ?? '', ...realmWideSettings(realm) };
}

/** How `user`'s messages render: their `translate_emoticons` (upstream reads the sender's, also when someone else edits). */
export function messageRenderOptions(user: UserRow | undefined): RenderOptions {
  return { translateEmoticons: (user?.settings?.translate_emoticons ?? USER_SETTING_DEFAULTS.translate_emoticons) === true };
}

/** `realm_user_settings_defaults`: what a new account starts with (a timezone is the account's own). */
export function realmUserSettingsDefaults(realm: RealmRow): Record<string, unknown> {
  return { ...USER_SETTING_DEFAULTS, ...realm.user_settings_defaults, ...realmWideSettings(realm) };
}

const realmWideSettings = (realm: RealmRow) => ({
  // Visibility is a realm-wide setting here; upstream reports it per user.
  email_address_visibility: realm.email_address_visibility,
  available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
  emojiset_choices: EMOJISET_CHOICES,
});

/** The legacy flattened keys of one of the two legacy sections. */
export function legacySettingsSection(
  settings: Record<string, unknown>,
  section: 'update_display_settings' | 'update_global_notifications',
): Record<string, unknown> {
  const keys = section === 'update_display_settings' ? LEGACY_DISPLAY_SETTINGS : LEGACY_NOTIFICATION_SETTINGS;
  return Object.fromEntries(keys.map((key) => [key, settings[key]]));
}

/** What a channel's null notification settings mean for this user. */
export function notificationDefaults(settings: Record<string, unknown>): NotificationDefaults {
  return {
    desktop_notifications: settings.enable_stream_desktop_notifications === true,
    audible_notifications: settings.enable_stream_audible_notifications === true,
    push_notifications: settings.enable_stream_push_notifications === true,
    email_notifications: settings.enable_stream_email_notifications === true,
    wildcard_mentions_notify: settings.wildcard_mentions_notify === true,
  };
}
