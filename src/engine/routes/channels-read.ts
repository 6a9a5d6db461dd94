import { channelWithMetadata, listedChannels } from '../actions/channel-reads.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, pathId } from '../http/param-types.ts';
import { loadChannelStats, loadSubscriberIds } from '../wire/channel-stats.ts';
import { channelToWire } from '../wire/channel-wire.ts';

export const channelsReadEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/streams',
    params: {
      include_public: bool().default(true),
      include_web_public: bool().default(false),
      include_subscribed: bool().default(true),
      exclude_archived: bool().default(true),
      include_all: bool().default(false),
      include_default: bool().default(false),
      include_owner_subscribed: bool().default(false),
    },
    aliases: { include_all_active: 'include_all' },
    async read(scope, params) {
      const { db, directory, now } = scope;
      const channels = await listedChannels(scope, {
        includePublic: params.include_public,
        includeWebPublic: params.include_web_public,
        includeSubscribed: params.include_subscribed,
        excludeArchived: params.exclude_archived,
        includeAll: params.include_all,
        includeDefault: params.include_default,
        includeOwnerSubscribed: params.include_owner_subscribed,
      });
      const subscriberIds = await loadSubscriberIds(db, directory.users);
      const stats = await loadChannelStats(db, channels, subscriberIds, now);
      const defaults = new Set(directory.realm.default_channel_ids);
      return {
        streams: channels.map((c) => {
          const wire = channelToWire(c, stats.get(c.id)!);
          if (params.include_default) wire.is_default = defaults.has(c.id);
          return wire;
        }),
      };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/streams/{stream_id}',
    params: { stream_id: pathId() },
    async read(scope, params) {
      const channel = await channelWithMetadata(scope, params.stream_id);
      const subscriberIds = await loadSubscriberIds(scope.db, scope.directory.users);
      const stats = await loadChannelStats(scope.db, [channel], subscriberIds, scope.now);
      return { stream: channelToWire(channel, stats.get(channel.id)!) };
    },
  }),
];
