import { z } from 'zod';
import type { NewChannelSettings } from '../actions/subscription-requests.ts';
import { VAR } from '../http/param-types.ts';
import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSetting } from '../permissions/channel-group-settings.ts';
import type { GroupSettingValue, TopicsPolicy } from '../storage/rows.ts';

/**
 * A string parameter that clients send either raw or JSON-encoded (upstream reads some of
 * these as JSON, its documentation shows them raw): a JSON string is unwrapped, anything else
 * is taken as it is.
 */
const rawOrJsonString = () =>
  z.string().transform((raw) => {
    try {
      const value: unknown = JSON.parse(raw);
      return typeof value === 'string' ? value : raw;
    } catch {
      return raw;
    }
  });

export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;

/** `topics_policy`: one of the four policies (spec 2.5). */
export const topicsPolicyParam = () => rawOrJsonString().pipe(z.enum(TOPICS_POLICIES, { error: `Invalid ${VAR}` }));

/** `message_retention_days`: a JSON number of days, or `realm_default` / `unlimited` (raw or JSON). */
export const retentionParam = () =>
  z.string().transform((raw): string | number => {
    try {
      const value: unknown = JSON.parse(raw);
      return typeof value === 'number' || typeof value === 'string' ? value : raw;
    } catch {
      return raw;
    }
  });

/** The group settings present among the parameters. */
export function groupSettingsOf<T>(params: Partial<Record<ChannelGroupSetting, T>>): Partial<Record<ChannelGroupSetting, T>> {
  return Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.filter((s) => params[s] !== undefined).map((s) => [s, params[s]]));
}

/** The parameters POST /channels/create and POST /users/me/subscriptions share for a new channel. */
export interface NewChannelParams extends Partial<Record<ChannelGroupSetting, GroupSettingValue>> {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  folder_id?: number | null;
  topics_policy: TopicsPolicy;
  history_public_to_subscribers?: boolean;
  message_retention_days: string | number;
}

export function newChannelSettings(params: NewChannelParams): NewChannelSettings {
  return {
    inviteOnly: params.invite_only,
    isWebPublic: params.is_web_public,
    isDefaultStream: params.is_default_stream,
    folderId: params.folder_id ?? null,
    topicsPolicy: params.topics_policy,
    historyPublicToSubscribers: params.history_public_to_subscribers,
    messageRetentionDays: params.message_retention_days,
    groupSettings: groupSettingsOf(params),
  };
}
