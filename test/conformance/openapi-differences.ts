/**
 * Where our answers knowingly differ from upstream's OpenAPI file
 * (../shared/reference/zulip-openapi.yaml, written at upstream feature level 338; we answer
 * at 417). Nothing else is tolerated: test/engine/conformance.test.ts fails a case on any other
 * fault, and fails when an entry here is never needed (so the list cannot go stale).
 */

interface KnownDifference {
  /** Matched against a fault as `operationId status /json/pointer: message`. */
  fault: RegExp;
  reason: string;
}

const fieldsIn = (fields: string[]) => new RegExp(`: has (${fields.join('|')}), which upstream's schema does not list$`);

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    fault: fieldsIn(['service_version', 'service_feature_level', 'service_merge_base']),
    reason: "our spec's names (section 9); upstream's zulip_version, zulip_feature_level and zulip_merge_base are sent beside them",
  },
  {
    fault: /\/reactions\/\d+\/reaction_type: must be equal to one of the allowed values/,
    reason: "our spec renames upstream's zulip_extra_emoji to service_extra_emoji; the upstream name is accepted as input",
  },
  {
    fault: fieldsIn([
      'max_reminder_note_length',
      'max_channel_folder_name_length',
      'max_channel_folder_description_length',
      'max_bulk_new_subscription_messages',
      'realm_topics_policy',
      'channel_folders',
      'navigation_views',
      'last_moved_timestamp',
      'folder_id',
      'topics_policy',
      'can_add_subscribers_group',
      'can_delete_any_message_group',
      'can_delete_own_message_group',
      'can_move_messages_out_of_channel_group',
      'can_move_messages_within_channel_group',
    ]),
    reason: 'named by our spec (sections 2.5, 2.7, 4.8, 4.21, 8); upstream added them after feature level 338',
  },
  {
    fault: fieldsIn([
      'reminders',
      'realm_can_add_subscribers_group',
      'realm_can_mention_many_users_group',
      'realm_can_resolve_topics_group',
      'realm_can_set_topics_policy_group',
      'hide_ai_features',
      'subscriber_count',
    ]),
    reason: 'upstream added them after feature level 338; we answer at 417, where they exist',
  },
  {
    fault: /^get-own-user 200 : has (bot_type|bot_owner_id), which/,
    reason: "upstream formats a bot's own user as GET /users/{id} does, with its bot type and owner; its get-own-user schema lists only a human's fields",
  },
  {
    fault: /get-events 200 \/events\/\d+\(stream\/delete\): has stream_ids, which upstream's schema does not list$/,
    reason: 'upstream added stream_ids to stream delete events (beside the full objects in streams) after feature level 338; we answer at 417',
  },
  {
    fault: /get-events 200 \/events\/\d+: event typing_edit_message\/(start|stop) is not in upstream's schema$/,
    reason: 'typing_edit_message events (POST /messages/{message_id}/typing) are new in upstream feature level 351; we answer at 417',
  },
  {
    fault: /get-events 200 \/events\/\d+\(message\): has local_message_id,/,
    reason: "upstream's event queue adds local_message_id to the sender's own message event (the web app's local echo reads it); its OpenAPI file does not list it",
  },
];

/** Fields upstream's error responses carry that its shared error schemas do not list. */
export const UNDOCUMENTED_ERROR_FIELDS: Record<string, string> = {
  var_name1: "upstream's RequestConfusingParamsError (REQUEST_CONFUSING_VAR) names both parameters",
  var_name2: "upstream's RequestConfusingParamsError (REQUEST_CONFUSING_VAR) names both parameters",
  allowed_methods: "upstream's 405 answer (json_method_not_allowed) lists the methods the path has",
  objections: "upstream's CannotDeactivateGroupInUseError lists the group's uses (deactivate-user-group's own example shows them); the shared CodedError schema does not",
};
