import { ApiError, badRequest, missingArgument } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, intList, intValue, json, listOf, nonNegativeInt, pathId, str, VAR } from '../http/param-types.ts';
import { flagList } from '../storage/flags.ts';
import { messageToWire } from '../wire/message-wire.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import { filterMessageIds, findMessageIds, type MessageWindow } from '../narrow/message-page.ts';
import { parseNarrow } from '../narrow/narrow-parse.ts';
import { positiveTerm } from '../narrow/narrow-terms.ts';
import { HISTORICAL_FLAGS, pageMessagesToWire } from '../narrow/page-wire.ts';
import { searchMatchFields } from '../narrow/search-highlight.ts';
import { z } from 'zod';

export const MAX_MESSAGES_PER_FETCH = 5000;
const TOO_MANY_MESSAGES = `Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`;

/** The range parameters that `message_ids` replaces, in the order upstream names them. */
const RANGE_PARAMETERS = ['num_before', 'num_after', 'anchor', 'message_ids', 'include_anchor', 'use_first_unread_anchor'];

const narrowParam = () => json(z.unknown());

export const messageFetchEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/messages',
    params: {
      anchor: str().optional(),
      include_anchor: bool().optional(),
      num_before: nonNegativeInt().optional(),
      num_after: nonNegativeInt().optional(),
      narrow: narrowParam().optional(),
      client_gravatar: bool().optional(),
      apply_markdown: bool().default(true),
      use_first_unread_anchor: bool().optional(),
      message_ids: json(listOf(intValue().min(0, { error: `${VAR} is too small` }), MAX_MESSAGES_PER_FETCH, TOO_MANY_MESSAGES)).optional(),
      allow_empty_topic_name: bool().default(false),
    },
    async read(scope, params) {
      const { db, directory, caller: user } = scope;
      const messageIds = params.message_ids;
      const window = messageIds === undefined ? readWindow(params) : undefined;
      if (messageIds !== undefined) {
        const rangeGiven = [params.anchor, params.include_anchor, params.num_before, params.num_after, params.use_first_unread_anchor];
        if (rangeGiven.some((value) => value !== undefined)) {
          const parameters = RANGE_PARAMETERS.join(', ');
          throw badRequest(`Unsupported parameter combination: ${parameters}`, { parameters });
        }
      }
      const terms = parseNarrow(params.narrow, directory, user);
      const search = positiveTerm(terms, 'search')?.query;
      const wireOptions = { applyMarkdown: params.apply_markdown, allowEmptyTopicName: params.allow_empty_topic_name, search };
      if (window === undefined) {
        const ids = await filterMessageIds(db, directory, user, terms, messageIds!);
        return {
          messages: await pageMessagesToWire(db, directory, user, ids, wireOptions),
          found_anchor: false,
          found_oldest: false,
          found_newest: false,
          history_limited: false,
        };
      }
      const page = await findMessageIds(db, directory, user, terms, window);
      return {
        messages: await pageMessagesToWire(db, directory, user, page.ids, wireOptions, page.found),
        anchor: page.anchor,
        found_anchor: page.foundAnchor,
        found_oldest: page.foundOldest,
        found_newest: page.foundNewest,
        history_limited: false,
      };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/messages/matches_narrow',
    params: {
      msg_ids: intList(MAX_MESSAGES_PER_FETCH),
      narrow: narrowParam(),
    },
    async read(scope, params) {
      const { db, directory, caller: user } = scope;
      const terms = parseNarrow(params.narrow, directory, user);
      const query = positiveTerm(terms, 'search')?.query ?? { words: [], phrases: [] };
      // As upstream, only messages the user received are checked.
      const ids = await filterMessageIds(db, directory, user, terms, params.msg_ids, { receivedOnly: true });
      const rows = await db.messages.bulkGet(ids);
      const messages: Record<string, unknown> = {};
      for (const row of rows) {
        if (row) messages[String(row.id)] = searchMatchFields(row, query, directory, false);
      }
      return { messages };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/messages/{message_id}',
    params: {
      message_id: pathId(),
      apply_markdown: bool().default(true),
      allow_empty_topic_name: bool().default(false),
    },
    async read(scope, params) {
      const { db, directory, caller: user } = scope;
      const { row, userMessage } = await loadAccessibleMessage(db, directory, user, params.message_id);
      const reactions = await db.reactions.where('message_id').equals(row.id).sortBy('seq');
      const message = messageToWire(row, reactions, directory, {
        viewer: user,
        applyMarkdown: params.apply_markdown,
        allowEmptyTopicName: params.allow_empty_topic_name,
      });
      message.flags = userMessage ? flagList(userMessage.flags) : [...HISTORICAL_FLAGS];
      return { raw_content: row.content, message };
    },
  }),
];

interface RangeParams {
  anchor?: string;
  include_anchor?: boolean;
  num_before?: number;
  num_after?: number;
  use_first_unread_anchor?: boolean;
}

/** The anchor window of a range request, validated in upstream's order. */
function readWindow(params: RangeParams): MessageWindow {
  const anchor = params.use_first_unread_anchor ? 'first_unread' : parseAnchor(params.anchor);
  if (params.num_before === undefined) throw missingArgument('num_before');
  if (params.num_after === undefined) throw missingArgument('num_after');
  if (params.num_before + params.num_after > MAX_MESSAGES_PER_FETCH) throw tooManyMessages();
  const includeAnchor = params.include_anchor ?? true;
  if (params.num_before > 0 && params.num_after > 0 && !includeAnchor) {
    throw badRequest('The anchor can only be excluded at an end of the range');
  }
  return { anchor, numBefore: params.num_before, numAfter: params.num_after, includeAnchor };
}

export function parseAnchor(raw: string | undefined): MessageWindow['anchor'] {
  if (raw === undefined) throw new ApiError("Missing 'anchor' argument.");
  if (raw === 'newest' || raw === 'oldest' || raw === 'first_unread') return raw;
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) throw badRequest('Invalid anchor');
  return Number(raw);
}

const tooManyMessages = (): ApiError => badRequest(TOO_MANY_MESSAGES);
