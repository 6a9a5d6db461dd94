import {
  checkEditableFlag,
  hasReceivedInTopic,
  markAllAsRead,
  markChannelAsRead,
  readableChannel,
  updateMessageFlags,
} from '../actions/message-flags.ts';
import { runAction } from '../actions/run-action.ts';
import { badRequest } from '../http/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, intList, json, nonNegativeInt, oneOf, str } from '../http/param-types.ts';
import { normalizeTopic } from '../lib/message-limits.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';
import { findMessageIds } from '../narrow/message-page.ts';
import { parseNarrow } from '../narrow/narrow-parse.ts';
import { parseAnchor } from './messages-fetch.ts';
import { z } from 'zod';

/** Upstream's bound on one flags-for-narrow request. */
const MAX_MESSAGES_PER_UPDATE = 5000;

/** Personal message flags: by id, by narrow, and the deprecated mark-as-read shortcuts. */
export const messageFlagEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/messages/flags',
    params: {
      messages: intList(),
      op: oneOf(['add', 'remove']),
      flag: str(),
    },
    async handler(ctx, params) {
      const { engine, user } = ctx;
      const messages = await runAction(engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        return updateMessageFlags(scope.db, scope, directory, user, params.op, params.flag, params.messages);
      });
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
    async handler(ctx, params) {
      const { engine, user } = ctx;
      const anchor = parseAnchor(params.anchor);
      if (params.num_before > 0 && params.num_after > 0 && !params.include_anchor) {
        throw badRequest('The anchor can only be excluded at an end of the range');
      }
      checkEditableFlag(params.flag);
      // Upstream shrinks oversized ranges rather than refusing them.
      const numBefore = Math.min(params.num_before, Math.max(MAX_MESSAGES_PER_UPDATE - params.num_after, MAX_MESSAGES_PER_UPDATE / 2));
      const numAfter = Math.min(params.num_after, MAX_MESSAGES_PER_UPDATE - numBefore);
      return runAction(engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        const terms = parseNarrow(params.narrow, directory, user);
        const page = await findMessageIds(scope.db, directory, user, terms, {
          anchor,
          numBefore,
          numAfter,
          includeAnchor: params.include_anchor,
        });
        const changed = await updateMessageFlags(scope.db, scope, directory, user, params.op, params.flag, page.ids);
        return {
          processed_count: page.ids.length,
          updated_count: changed.length,
          first_processed_id: page.ids[0] ?? null,
          last_processed_id: page.ids.at(-1) ?? null,
          found_oldest: page.foundOldest,
          found_newest: page.foundNewest,
        };
      });
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/mark_all_as_read',
    params: {},
    async handler(ctx) {
      const { engine, user } = ctx;
      await runAction(engine, (scope) => markAllAsRead(scope.db, scope, user));
      return { complete: true };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/mark_stream_as_read',
    params: { stream_id: int() },
    async handler(ctx, params) {
      const { engine, user } = ctx;
      await runAction(engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        const channel = await readableChannel(scope.db, directory, user, params.stream_id);
        await markChannelAsRead(scope.db, scope, user, channel);
      });
      return {};
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/mark_topic_as_read',
    params: { stream_id: int(), topic_name: str() },
    async handler(ctx, params) {
      const { engine, user } = ctx;
      await runAction(engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        const channel = await readableChannel(scope.db, directory, user, params.stream_id);
        const topic = normalizeTopic(params.topic_name, directory.realm);
        if (!(await hasReceivedInTopic(scope.db, user.id, channel, topic))) {
          throw badRequest(`No such topic '${params.topic_name}'`);
        }
        await markChannelAsRead(scope.db, scope, user, channel, topic);
      });
      return {};
    },
  }),
];
