import { groupSettingToWire } from '../wire/channel-wire.ts';
import { REALM_PERMISSION_GROUPS, type RealmPermission, realmPermissionGroup } from '../permissions/realm-permissions.ts';
import {
  MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
  MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH,
  MAX_CHANNEL_FOLDER_NAME_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_REMINDER_NOTE_LENGTH,
  MAX_STREAM_DESCRIPTION_LENGTH,
  MAX_STREAM_NAME_LENGTH,
  MAX_TOPIC_LENGTH,
} from '../validation/message-limits.ts';
import type { RealmRow } from '../storage/rows.ts';
import { maxFileUploadSizeMib } from '../validation/upload-limits.ts';
import { API_PREFIX, realmUrl, SERVER_EMOJI_DATA_PATH } from '../wire/paths.ts';
import { configuredAnnouncementChannelId, webPublicChannelsEnabled } from '../permissions/realm-channel-settings.ts';

/** How long a client should wait on GET /events before retrying (upstream's production value). */
export const EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS = 90;


/** Keys every /register response carries, whatever the client asked for. */
export function alwaysPresentKeys(realm: RealmRow): Record<string, unknown> {
  return {
    max_message_length: MAX_MESSAGE_LENGTH,
    max_topic_length: MAX_TOPIC_LENGTH,
    max_stream_name_length: MAX_STREAM_NAME_LENGTH,
    max_stream_description_length: MAX_STREAM_DESCRIPTION_LENGTH,
    max_channel_folder_name_length: MAX_CHANNEL_FOLDER_NAME_LENGTH,
    max_channel_folder_description_length: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH,
    max_reminder_note_length: MAX_REMINDER_NOTE_LENGTH,
    max_bulk_new_subscription_messages: MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
    realm_empty_topic_display_name: realm.empty_topic_display_name,
    event_queue_longpoll_timeout_seconds: EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS,
  };
}

/**
 * Upstream's video call providers as a server offers them: None and Jitsi Meet always, and
 * BigBlueButton, whose calls GET /calls/bigbluebutton/create makes here (Zoom, id 3, needs an
 * OAuth app with Zoom, which no sandbox has).
 */
const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  big_blue_button: { name: 'BigBlueButton', id: 4 },
};

/** Upstream's GIPHY content ratings an organization may choose from (GIPHY itself is off here). */
const GIPHY_RATING_OPTIONS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  'pg-13': { name: 'Allow GIFs rated PG13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
};

/** `realm` section: the organization's settings and the server facts a client needs. */
export function realmSection(realm: RealmRow, serverGeneration: number): Record<string, unknown> {
  const url = realmUrl(realm);
  const section: Record<string, unknown> = {
    realm_name: realm.name,
    realm_description: realm.description,
    realm_url: url,
    realm_uri: url,
    realm_date_created: realm.date_created,
    realm_topics_policy: realm.topics_policy,
    realm_mandatory_topics: realm.topics_policy === 'disable_empty_topic',
    realm_allow_message_editing: realm.allow_message_editing,
    realm_message_content_edit_limit_seconds: realm.message_content_edit_limit_seconds,
    realm_move_messages_within_stream_limit_seconds: realm.move_messages_within_stream_limit_seconds,
    realm_move_messages_between_streams_limit_seconds: realm.move_messages_between_streams_limit_seconds,
    realm_message_content_delete_limit_seconds: realm.message_content_delete_limit_seconds,
    realm_allow_edit_history: realm.allow_edit_history,
    realm_message_retention_days: realm.message_retention_days,
    realm_waiting_period_threshold: 0,
    realm_default_language: 'en',
    realm_invite_required: true,
    realm_emails_restricted_to_domains: false,
    realm_disallow_disposable_email_addresses: true,
    realm_email_changes_disabled: false,
    realm_name_changes_disabled: false,
    realm_avatar_changes_disabled: false,
    realm_require_unique_names: false,
    realm_inline_image_preview: true,
    realm_inline_url_embed_preview: false,
    realm_send_welcome_emails: true,
    realm_digest_emails_enabled: false,
    realm_digest_weekday: 1,
    realm_message_content_allowed_in_email_notifications: true,
    realm_enable_spectator_access: webPublicChannelsEnabled(realm),
    realm_want_advertise_in_communities_directory: false,
    realm_enable_read_receipts: realm.enable_read_receipts === true,
    realm_enable_guest_user_indicator: true,
    realm_presence_disabled: false,
    realm_default_code_block_language: realm.default_code_block_language ?? '',
    realm_video_chat_provider: 0,
    realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
    realm_jitsi_server_url: null,
    realm_giphy_rating: 0,
    giphy_rating_options: GIPHY_RATING_OPTIONS,
    realm_authentication_methods: { Email: { enabled: true, available: true } },
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_push_notifications_enabled: false,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_is_zephyr_mirror_realm: false,
    realm_icon_url: '',
    realm_icon_source: 'G',
    realm_logo_url: '',
    realm_logo_source: 'D',
    realm_night_logo_url: '',
    realm_night_logo_source: 'D',
    realm_bot_domain: realm.host,
    realm_org_type: 0,
    realm_plan_type: 1,
    // Self-hosted (plan type 1) is not Zulip Cloud's limited plan.
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: 'Available on Zulip Cloud Standard. Upgrade to access.',
    realm_upload_quota_mib: null,
    realm_default_external_accounts: {},
    realm_new_stream_announcements_stream_id: configuredAnnouncementChannelId(realm) ?? -1,
    realm_signup_announcements_stream_id: -1,
    realm_zulip_update_announcements_stream_id: -1,
    realm_moderation_request_channel_id: realm.moderation_request_channel_id ?? -1,
    settings_send_digest_emails: false,
    development_environment: false,
    password_min_length: 6,
    password_max_length: 100,
    password_min_guesses: 10000,
    max_file_upload_size_mib: maxFileUploadSizeMib(realm),
    max_avatar_file_size_mib: 0,
    max_icon_file_size_mib: 0,
    max_logo_file_size_mib: 0,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_thumbnail_formats: [],
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: webPublicChannelsEnabled(realm),
    server_jitsi_server_url: null,
    server_emoji_data_url: `${API_PREFIX}${SERVER_EMOJI_DATA_PATH}`,
    server_generation: serverGeneration,
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 140,
    server_typing_started_expiry_period_milliseconds: 15000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_wait_period_milliseconds: 10000,
    server_min_deactivated_realm_deletion_days: null,
    server_max_deactivated_realm_deletion_days: null,
  };
  for (const name of Object.keys(REALM_PERMISSION_GROUPS) as RealmPermission[]) {
    section[`realm_${name}`] = groupSettingToWire(realmPermissionGroup(realm, name));
  }
  return section;
}
