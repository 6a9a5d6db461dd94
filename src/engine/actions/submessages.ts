import { badRequest } from '../errors/api-error.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import { nextId } from '../storage/database.ts';
import type { MessageRow, SubmessageEntry } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { messageAudienceIds } from './delete-message.ts';
import { checkWidgetData, widgetTypeOf } from './widgets.ts';

/**
 * Bounds on what a message carries in submessages: each one's size and its type's, and all of
 * theirs together (they live on the message's row, rewritten with each; every vote is one).
 */
export const MAX_SUBMESSAGE_CONTENT_LENGTH = 10000;
export const MAX_SUBMESSAGE_TYPE_LENGTH = 100;
export const MAX_SUBMESSAGES_PER_MESSAGE = 2000;
export const MAX_SUBMESSAGES_TOTAL_LENGTH = 200_000;

export interface SubmessageRequest {
  messageId: number;
  msgType: string;
  content: string;
}

/**
 * Adds the caller's submessage to a message they can see (upstream's `process_submessage`): a
 * vote, an option, a task, as the message's widget allows. As upstream, the first submessage of
 * a message is its sender's, and its content is JSON. Everyone who can see the message is told.
 */
export async function addSubmessage(scope: CallerScope, request: SubmessageRequest): Promise<void> {
  const { db, directory, caller } = scope;
  const { row } = await loadAccessibleMessage(db, directory, caller, request.messageId);
  const submessages = row.submessages ?? [];
  if (caller.id !== row.sender_id && !submessages.some((submessage) => submessage.sender_id === row.sender_id)) {
    throw badRequest('You cannot attach a submessage to this message.');
  }
  let data: unknown;
  try {
    data = JSON.parse(request.content);
  } catch {
    throw badRequest('Invalid json for submessage');
  }
  checkWidgetData(widgetTypeOf(submessages), data, caller.id === row.sender_id);
  const total = submessages.reduce((length, submessage) => length + submessage.content.length, request.content.length);
  if (submessages.length >= MAX_SUBMESSAGES_PER_MESSAGE || total > MAX_SUBMESSAGES_TOTAL_LENGTH) throw badRequest('This message has too many submessages.');

  const submessage: SubmessageEntry = { id: await nextId(db, 'submessage'), sender_id: caller.id, msg_type: request.msgType, content: request.content };
  await db.messages.update(row.id, { submessages: [...submessages, submessage] });
  scope.notify({
    event: submessageEvent(row, submessage),
    users: await messageAudienceIds(db, directory, row),
  });
}

export function submessageEvent(row: MessageRow, submessage: SubmessageEntry) {
  return {
    type: 'submessage',
    msg_type: submessage.msg_type,
    message_id: row.id,
    submessage_id: submessage.id,
    sender_id: submessage.sender_id,
    content: submessage.content,
  };
}
