import { type ChannelRef, sendCallerMessage, type UserRef } from '../actions/send-message.ts';
import { badRequest } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, oneOf, str } from '../http/param-types.ts';
import { listTooLong, MAX_LIST_LENGTH } from '../validation/list-limits.ts';

export const messageSendEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/messages',
    params: {
      type: oneOf(['direct', 'private', 'channel', 'stream']),
      to: str(),
      content: str(),
      topic: str().optional(),
      queue_id: str().optional(),
      local_id: str().optional(),
      read_by_sender: bool().optional(),
    },
    aliases: { subject: 'topic' },
    async write(scope, params) {
      const isChannel = params.type === 'channel' || params.type === 'stream';
      const to = isChannel
        ? { kind: 'channel' as const, channel: parseChannelTo(params.to), topic: params.topic }
        : { kind: 'direct' as const, users: parseDirectTo(params.to) };
      return sendCallerMessage(scope, {
        to,
        content: params.content,
        readBySender: params.read_by_sender,
        queueId: params.queue_id,
        localId: params.local_id,
      });
    },
  }),
];

/** A channel `to`: an id, a name, a JSON-quoted name, or a one-element JSON list of either. */
function parseChannelTo(raw: string): ChannelRef {
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    return { name: raw };
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest('Cannot send to multiple channels');
    value = value[0];
  }
  if (typeof value === 'number' && Number.isInteger(value)) return { id: value };
  if (typeof value === 'string') return { name: value };
  return { name: raw };
}

/** A direct `to`: a JSON list of user ids or of emails, or comma-separated emails. */
function parseDirectTo(raw: string): UserRef[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw.split(',').map((email) => email.trim()).filter(Boolean);
  }
  if (typeof value === 'number') value = [value];
  if (typeof value === 'string') value = value.split(',').map((email) => email.trim()).filter(Boolean);
  if (!Array.isArray(value)) throw badRequest('Invalid recipients');
  if (value.length > MAX_LIST_LENGTH) throw badRequest(listTooLong('to', MAX_LIST_LENGTH));
  const ids = value.filter((v) => typeof v === 'number');
  const emails = value.filter((v) => typeof v === 'string');
  if (ids.length > 0 && emails.length > 0) {
    throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
  }
  if (ids.length + emails.length !== value.length || ids.some((id) => !Number.isInteger(id))) {
    throw badRequest('Invalid recipients');
  }
  return ids.length > 0 ? ids.map((id) => ({ id })) : emails.map((email) => ({ email }));
}
