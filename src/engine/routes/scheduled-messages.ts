import { z } from 'zod';
import {
  deleteScheduledMessage,
  editScheduledMessage,
  scheduleMessage,
  type ScheduledType,
} from '../actions/scheduled-messages.ts';
import { badRequest } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, intValue, json, listOf, oneOf, pathId, str } from '../http/param-types.ts';
import { scheduledMessageToWire, undeliveredOf } from '../wire/scheduled-wire.ts';

const TYPES = ['direct', 'private', 'channel', 'stream'] as const;
/** A channel id, or a list of user ids, JSON-encoded. */
const scheduledTo = () => json(z.union([intValue(), listOf(intValue())]));

/** `direct`/`private` and `channel`/`stream` are the same types; stored under upstream's names. */
const storedType = (type: (typeof TYPES)[number]): ScheduledType =>
  type === 'channel' || type === 'stream' ? 'stream' : 'private';

/** The caller's messages to send later (upstream's scheduled_messages endpoints). */
export const scheduledMessageEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/scheduled_messages',
    params: {},
    async read(scope) {
      const rows = await undeliveredOf(scope.db, scope.caller.id, 'scheduled');
      return { scheduled_messages: rows.map((row) => scheduledMessageToWire(row)) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/scheduled_messages',
    params: {
      type: oneOf(TYPES),
      to: scheduledTo(),
      content: str(),
      topic: str().optional(),
      scheduled_delivery_timestamp: int(),
      read_by_sender: bool().optional(),
    },
    aliases: { subject: 'topic' },
    async write(scope, params) {
      const id = await scheduleMessage(scope, {
        type: storedType(params.type),
        to: params.to,
        topic: params.topic,
        content: params.content,
        deliverAt: params.scheduled_delivery_timestamp,
        readBySender: params.read_by_sender,
      });
      return { scheduled_message_id: id };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/scheduled_messages/{scheduled_message_id}',
    params: {
      scheduled_message_id: pathId(),
      type: oneOf(TYPES).optional(),
      to: scheduledTo().optional(),
      topic: str().optional(),
      content: str().optional(),
      scheduled_delivery_timestamp: int().optional(),
    },
    aliases: { subject: 'topic' },
    async write(scope, params) {
      const { type, to, topic, content, scheduled_delivery_timestamp: deliverAt } = params;
      if (type === undefined && to === undefined && topic === undefined && content === undefined && deliverAt === undefined) {
        throw badRequest('Nothing to change');
      }
      if (type !== undefined && to === undefined) {
        throw badRequest('Recipient required when updating type of scheduled message.');
      }
      await editScheduledMessage(scope, {
        id: params.scheduled_message_id,
        type: type === undefined ? undefined : storedType(type),
        to,
        topic,
        content,
        deliverAt,
      });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/scheduled_messages/{scheduled_message_id}',
    params: { scheduled_message_id: pathId() },
    async write(scope, params) {
      await deleteScheduledMessage(scope, params.scheduled_message_id);
      return {};
    },
  }),
];
