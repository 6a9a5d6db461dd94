import { badRequest } from '../http/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, pathId } from '../http/param-types.ts';
import { loadChannelStats, loadSubscriberIds } from '../initial-state/channel-stats.ts';
import { canSeeChannelMetadata } from '../initial-state/channel-visibility.ts';
import { channelToWire } from '../lib/channel-wire.ts';
import { ROLE_ADMIN, ROLE_GUEST, type ChannelRow } from '../storage/rows.ts';

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
    async read({ db, directory, caller: user, now }, params) {
      if (params.include_all && user.role > ROLE_ADMIN) throw badRequest('User not authorized for this query');
      const subscribedBy = async (userId: number) =>
        new Set((await db.subscriptions.where('[user_id+active]').equals([userId, 1]).toArray()).map((s) => s.channel_id));
      const subscribed = await subscribedBy(user.id);
      const ownerSubscribed =
        params.include_owner_subscribed && user.is_bot && user.bot_owner_id !== null ? await subscribedBy(user.bot_owner_id) : new Set<number>();
      const defaults = new Set(directory.realm.default_channel_ids);
      // Guests never see public channels they are not in.
      const includePublic = params.include_public && user.role !== ROLE_GUEST;
      const wanted = (c: ChannelRow) =>
        params.include_all ||
        (includePublic && !c.invite_only) ||
        (params.include_web_public && c.is_web_public) ||
        (params.include_subscribed && subscribed.has(c.id)) ||
        (params.include_default && defaults.has(c.id)) ||
        ownerSubscribed.has(c.id);
      const channels = [...directory.channels.values()]
        .filter((c) => !(params.exclude_archived && c.is_archived))
        .filter(wanted)
        .sort((a, b) => a.name.localeCompare(b.name));
      const subscriberIds = await loadSubscriberIds(db, directory.users);
      const stats = await loadChannelStats(db, channels, subscriberIds, now);
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
    async read({ db, directory, caller, now }, params) {
      const channel = directory.channels.get(params.stream_id);
      const subscription = channel && (await db.subscriptions.get([caller.id, channel.id]));
      if (!channel || !canSeeChannelMetadata(caller, channel, subscription?.active === 1)) {
        throw badRequest('Invalid channel ID');
      }
      const subscriberIds = await loadSubscriberIds(db, directory.users);
      const stats = await loadChannelStats(db, [channel], subscriberIds, now);
      return { stream: channelToWire(channel, stats.get(channel.id)!) };
    },
  }),
];
