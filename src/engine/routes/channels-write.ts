import { archiveChannel } from '../actions/channel-archive.ts';
import { type ChannelChanges, updateChannel } from '../actions/channel-update.ts';
import { createChannel } from '../actions/channels.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, intList, intValue, json, pathId, str } from '../http/param-types.ts';
import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSetting } from '../permissions/channel-group-settings.ts';
import { groupSettingUpdate, groupSettingValue } from './group-setting-params.ts';
import { MAX_STREAM_DESCRIPTION_LENGTH } from '../validation/message-limits.ts';
import { groupSettingsOf, newChannelSettings, retentionParam, topicsPolicyParam } from './channel-params.ts';

const groupSettingParams = <T>(param: () => T) =>
  Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((s) => [s, param()])) as Record<ChannelGroupSetting, T>;

/** Creating, changing and archiving channels. */
export const channelWriteEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/channels/create',
    params: {
      name: str(),
      description: str().max(MAX_STREAM_DESCRIPTION_LENGTH).default(''),
      subscribers: intList(),
      announce: bool().default(false),
      invite_only: bool().default(false),
      is_web_public: bool().default(false),
      is_default_stream: bool().default(false),
      folder_id: int().optional(),
      topics_policy: topicsPolicyParam().default('inherit'),
      history_public_to_subscribers: bool().optional(),
      message_retention_days: retentionParam().default('realm_default'),
      ...groupSettingParams(() => json(groupSettingValue()).optional()),
    },
    write: (scope, params) =>
      createChannel(scope, {
        name: params.name,
        description: params.description,
        subscriberIds: params.subscribers,
        announce: params.announce,
        ...newChannelSettings(params),
      }),
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/streams/{stream_id}',
    params: {
      stream_id: pathId(),
      new_name: str().optional(),
      description: str().max(MAX_STREAM_DESCRIPTION_LENGTH).optional(),
      is_private: bool().optional(),
      is_web_public: bool().optional(),
      history_public_to_subscribers: bool().optional(),
      is_default_stream: bool().optional(),
      message_retention_days: retentionParam().optional(),
      folder_id: json(intValue().nullable()).optional(),
      topics_policy: topicsPolicyParam().optional(),
      ...groupSettingParams(() => json(groupSettingUpdate()).optional()),
    },
    async write(scope, params) {
      const changes: ChannelChanges = {
        newName: params.new_name,
        description: params.description,
        isPrivate: params.is_private,
        isWebPublic: params.is_web_public,
        historyPublicToSubscribers: params.history_public_to_subscribers,
        isDefaultStream: params.is_default_stream,
        messageRetentionDays: params.message_retention_days,
        folderId: params.folder_id,
        topicsPolicy: params.topics_policy,
        groupSettings: groupSettingsOf(params),
      };
      await updateChannel(scope, { channelId: params.stream_id, changes });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/streams/{stream_id}',
    params: { stream_id: pathId() },
    async write(scope, params) {
      await archiveChannel(scope, params.stream_id);
      return {};
    },
  }),
];
