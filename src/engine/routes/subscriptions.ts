import { isUserSubscribed } from '../actions/channel-reads.ts';
import { updateSubscriptionProperties } from '../actions/subscription-properties.ts';
import { addSubscriptions, changeSubscriptions, removeSubscriptions } from '../actions/subscription-requests.ts';
import { badRequest } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, json, listOf, pathId, stringValue } from '../http/param-types.ts';
import { loadChannelStats, loadChannelSubscriberIds } from '../wire/channel-stats.ts';
import { subscriberFields, subscriptionToWire } from '../wire/subscription-wire.ts';
import type { ChannelRow } from '../storage/rows.ts';
import { newChannelSettings, retentionParam, topicsPolicyParam } from './channel-params.ts';
import {
  channelRequests,
  checkPropertyChange,
  groupSettingParams,
  includeSubscribersParam,
  principalsParam,
  subscriptionDataParam,
} from './subscription-params.ts';

/** The caller's subscriptions and their changes, and whether a user is subscribed to a channel. */
export const subscriptionEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/users/me/subscriptions',
    params: { include_subscribers: includeSubscribersParam().default('none') },
    async read({ db, directory, caller, now }, params) {
      const subs = await db.subscriptions.where('[user_id+active]').equals([caller.id, 1]).toArray();
      const entries = subs
        .map((sub) => ({ sub, channel: directory.channels.get(sub.channel_id) }))
        .filter((e): e is { sub: typeof e.sub; channel: ChannelRow } => e.channel !== undefined && !e.channel.is_archived)
        .sort((a, b) => a.channel.id - b.channel.id);
      const channels = entries.map((e) => e.channel);
      const subscriberIds = await loadChannelSubscriberIds(db, directory.users, channels.map((c) => c.id));
      const stats = await loadChannelStats(db, channels, subscriberIds, now);
      return {
        // This endpoint always speaks the modern format, where null means "inherit".
        subscriptions: entries.map(({ sub, channel }) => {
          const subscribers = subscriberFields(subscriberIds.get(channel.id) ?? [], directory.users, params.include_subscribers);
          return subscriptionToWire(channel, sub, stats.get(channel.id)!, null, subscribers);
        }),
      };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/users/me/subscriptions',
    params: {
      subscriptions: channelRequests(),
      principals: principalsParam().optional(),
      authorization_errors_fatal: bool().default(true),
      announce: bool().default(false),
      invite_only: bool().default(false),
      is_web_public: bool().default(false),
      is_default_stream: bool().default(false),
      history_public_to_subscribers: bool().optional(),
      message_retention_days: retentionParam().default('realm_default'),
      topics_policy: topicsPolicyParam().default('inherit'),
      folder_id: int().optional(),
      ...groupSettingParams,
    },
    write: (scope, params) =>
      addSubscriptions(scope, {
        channels: params.subscriptions,
        principals: params.principals,
        authorizationErrorsFatal: params.authorization_errors_fatal,
        announce: params.announce,
        newChannels: newChannelSettings(params),
      }),
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/users/me/subscriptions',
    params: {
      add: channelRequests().optional(),
      delete: json(listOf(stringValue())).optional(),
    },
    async write(scope, params) {
      const add = params.add ?? [];
      const remove = params.delete ?? [];
      if (add.length === 0 && remove.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
      return changeSubscriptions(scope, { add, remove });
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/users/me/subscriptions',
    params: {
      subscriptions: json(listOf(stringValue())),
      principals: principalsParam().optional(),
    },
    write: (scope, params) => removeSubscriptions(scope, { names: params.subscriptions, principals: params.principals }),
  }),

  defineEndpoint({
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    params: {
      subscription_data: subscriptionDataParam(),
    },
    async write(scope, params) {
      await updateSubscriptionProperties(scope, params.subscription_data.map(checkPropertyChange));
      return {};
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/users/{user_id}/subscriptions/{stream_id}',
    params: { user_id: pathId(), stream_id: pathId() },
    async read(scope, params) {
      return { is_subscribed: await isUserSubscribed(scope, { userId: params.user_id, channelId: params.stream_id }) };
    },
  }),
];
