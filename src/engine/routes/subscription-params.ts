import { z } from 'zod';
import {
  SUBSCRIPTION_PROPERTIES,
  type SubscriptionProperty,
  type SubscriptionPropertyChange,
} from '../actions/subscription-properties.ts';
import type { ChannelRequest, NewChannelSettings } from '../actions/subscription-requests.ts';
import { badRequest } from '../http/api-error.ts';
import { boolValue, intValue, json, listOf, stringValue, VAR } from '../http/param-types.ts';
import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSetting } from '../lib/channel-group-settings.ts';
import { checkChannelName } from '../lib/channel-names.ts';
import { groupSettingValue } from '../lib/group-setting-input.ts';
import { MAX_STREAM_DESCRIPTION_LENGTH } from '../lib/message-limits.ts';
import type { SubscriberMode } from '../lib/subscription-wire.ts';
import { ROLE_GUEST, type UserRow } from '../storage/rows.ts';

/** `true`, `false` (JSON) or `partial` (raw or JSON-encoded). */
export const includeSubscribersParam = () =>
  z.string().transform((raw, ctx): SubscriberMode => {
    if (raw === 'partial' || raw === '"partial"') return 'partial';
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${VAR} is not valid JSON` });
      return z.NEVER;
    }
    if (typeof value !== 'boolean') {
      ctx.addIssue({ code: 'custom', message: `${VAR} is not a boolean` });
      return z.NEVER;
    }
    return value ? 'all' : 'none';
  });

/** A channel to subscribe to: `{name, description?, color?}` (POST `subscriptions`, PATCH `add`). */
export const channelRequests = () =>
  json(
    listOf(
      z.strictObject({
        name: stringValue(),
        description: stringValue().pipe(z.string().max(MAX_STREAM_DESCRIPTION_LENGTH)).optional(),
        color: stringValue().optional(),
      }),
    ),
  );

/** A property's value: a boolean, or a string for `color`. */
const booleanOrString = () =>
  z.union([boolValue(), stringValue()], { error: (issue) => (issue.input === undefined ? `${VAR} is missing` : `Invalid ${VAR}`) });

/** `subscription_data`: `[{stream_id, property, value}]`. */
export const subscriptionDataParam = () =>
  json(listOf(z.strictObject({ stream_id: intValue(), property: stringValue(), value: booleanOrString() })));

export const principalsParam = () => json(z.union([listOf(stringValue()), listOf(intValue())]));

/** Upstream's hex color rule for personal channel colors. */
function checkColor(name: string, value: string): string {
  if (!/^#[a-fA-F0-9]{3,6}$/.test(value)) throw badRequest(`${name} is not a valid hex color code`);
  return value;
}

/** Names checked as upstream checks them, and colors as hex colors; descriptions stay as sent. */
export function checkChannelRequests(requests: readonly ChannelRequest[]): ChannelRequest[] {
  return requests.map((r) => ({
    name: checkChannelName(r.name),
    ...(r.description !== undefined && { description: r.description }),
    ...(r.color !== undefined && { color: checkColor('add.color', r.color) }),
  }));
}

/** Upstream refuses every subscribe request from a guest, even one only unsubscribing (PATCH). */
export function refuseGuests(user: UserRow): void {
  if (user.role === ROLE_GUEST) throw badRequest('Not allowed for guest users');
}

const optionalGroupSetting = () => json(groupSettingValue()).optional();
export const groupSettingParams = Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((setting) => [setting, optionalGroupSetting()])) as Record<
  ChannelGroupSetting,
  ReturnType<typeof optionalGroupSetting>
>;

/** How a channel created by PATCH `add` is set up: upstream's defaults for a new channel. */
export const DEFAULT_NEW_CHANNEL: NewChannelSettings = {
  inviteOnly: false,
  isWebPublic: false,
  isDefaultStream: false,
  folderId: null,
  topicsPolicy: 'inherit',
  historyPublicToSubscribers: undefined,
  messageRetentionDays: 'realm_default',
  groupSettings: {},
};

/** Checks one `subscription_data` entry as upstream does before touching any subscription. */
export function checkPropertyChange(change: { stream_id: number; property: string; value: boolean | string }): SubscriptionPropertyChange {
  const { stream_id, property, value } = change;
  if (!(SUBSCRIPTION_PROPERTIES as readonly string[]).includes(property)) {
    throw badRequest(`Unknown subscription property: ${property}`);
  }
  if (property === 'color') return { stream_id, property, value: checkColor('color', String(value)) };
  if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  return { stream_id, property: property as Exclude<SubscriptionProperty, 'color'>, value };
}
