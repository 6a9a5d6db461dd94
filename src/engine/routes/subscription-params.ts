import { z } from 'zod';
import {
  SUBSCRIPTION_PROPERTIES,
  type SubscriptionProperty,
  type SubscriptionPropertyChange,
} from '../actions/subscription-properties.ts';
import { badRequest } from '../errors/api-error.ts';
import { boolValue, intValue, json, listOf, stringValue, VAR } from '../http/param-types.ts';
import { checkColor } from '../validation/channel-colors.ts';
import { CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSetting } from '../permissions/channel-group-settings.ts';
import { groupSettingValue } from './group-setting-params.ts';
import { MAX_STREAM_DESCRIPTION_LENGTH } from '../validation/message-limits.ts';
import type { SubscriberMode } from '../wire/subscription-wire.ts';

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

const optionalGroupSetting = () => json(groupSettingValue()).optional();
export const groupSettingParams = Object.fromEntries(CHANNEL_GROUP_SETTING_NAMES.map((setting) => [setting, optionalGroupSetting()])) as Record<
  ChannelGroupSetting,
  ReturnType<typeof optionalGroupSetting>
>;

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
