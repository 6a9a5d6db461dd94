import {
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
  MAX_MESSAGES_PER_UPDATE,
  updateFlagsForNarrow,
  updateMessageFlags,
} from '../actions/message-flags.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, intList, json, nonNegativeInt, oneOf, str } from '../http/param-types.ts';
import { parseAnchor } from './messages-fetch.ts';
import { z } from 'zod';

/** Personal message flags: by id, by narrow, and the deprecated mark-as-read shortcuts. */
export const messageFlagEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/messages/flags',
    params: {
      messages: intList(MAX_MESSAGES_PER_UPDATE),
      op: oneOf(['add', 'remove']),
      flag: str(),
    },
    async write(scope, params) {
      const messages = await updateMessageFlags(scope, { op: params.op, flag: params.flag, messageIds: params.messages });
      return { messages };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/messages/flags/narrow',
    params: {
      anchor: str(),
      include_anchor: bool().default(true),
      num_before: nonNegativeInt(),
      num_after: nonNegativeInt(),
      narrow: json(z.unknown()),
      op: oneOf(['add', 'remove']),
      flag: str(),
    },
    async write(scope, params) {
      const { page, changedIds } = await updateFlagsForNarrow(scope, {
        anchor: parseAnchor(params.anchor),
        includeAnchor: params.include_anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        narrow: params.narrow,
        op: params.op,
        flag: params.flag,
      });
      return {
        processed_count: page.ids.length,
        updated_count: changedIds.length,
        first_processed_id: page.ids[0] ?? null,
        last_processed_id: page.ids.at(-1) ?? null,
        found_oldest: page.foundOldest,
        found_newest: page.foundNewest,
      };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/mark_all_as_read',
    params: {},
    async write(scope) {
      await markAllAsRead(scope);
      return { complete: true };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/mark_stream_as_read',
    params: { stream_id: int() },
    async write(scope, params) {
      await markStreamAsRead(scope, params.stream_id);
      return {};
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/mark_topic_as_read',
    params: { stream_id: int(), topic_name: str() },
    async write(scope, params) {
      await markTopicAsRead(scope, { channelId: params.stream_id, topicName: params.topic_name });
      return {};
    },
  }),
];
