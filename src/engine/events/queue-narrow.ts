import { badRequest } from '../errors/api-error.ts';
import { RESOLVED_TOPIC_PREFIX } from '../validation/message-limits.ts';
import type { EngineEvent } from './event-types.ts';

/** A register `narrow` term: [operator, operand] (the parameter parser checks the length). */
export type QueueNarrowTerm = readonly string[];

const CHANNEL_OPERATORS = new Set(['channel', 'stream']);
const SUPPORTED_OPERATORS = new Set([...CHANNEL_OPERATORS, 'topic', 'sender', 'is']);

type MessageTest = (message: Record<string, unknown>, flags: readonly string[]) => boolean;

const IS_TESTS: Record<string, MessageTest> = {
  dm: (message) => message.type === 'private',
  private: (message) => message.type === 'private',
  starred: (_, flags) => flags.includes('starred'),
  unread: (_, flags) => !flags.includes('read'),
  mentioned: (_, flags) => flags.includes('mentioned') || flags.includes('wildcard_mentioned') || flags.includes('group_mentioned'),
  alerted: (_, flags) => flags.includes('has_alert_word'),
  resolved: (message) => message.type === 'stream' && String(message.subject).startsWith(RESOLVED_TOPIC_PREFIX),
};

const lower = (value: unknown) => String(value).toLowerCase();

/**
 * Checks a register `narrow` and keeps it as data on the queue: only the operators upstream
 * supports for queues are accepted; anything else is refused at register time.
 */
export function checkQueueNarrow(terms: readonly QueueNarrowTerm[]): readonly QueueNarrowTerm[] {
  for (const [operator, operand] of terms) termTest(operator, operand);
  return terms;
}

/** Whether a finalized message event (as the queue's user sees it) matches every term. */
export function matchesQueueNarrow(terms: readonly QueueNarrowTerm[], event: EngineEvent): boolean {
  const message = event.message as Record<string, unknown> | undefined;
  if (!message) return false;
  const flags = (event.flags as string[] | undefined) ?? [];
  return terms.every(([operator, operand]) => termTest(operator, operand)(message, flags));
}

function termTest(operator: string, operand: string): MessageTest {
  if (!SUPPORTED_OPERATORS.has(operator)) throw badRequest(`Operator ${operator} not supported.`);
  if (CHANNEL_OPERATORS.has(operator)) {
    return (message) =>
      message.type === 'stream' && (lower(message.display_recipient) === lower(operand) || String(message.stream_id) === operand);
  }
  if (operator === 'topic') return (message) => message.type === 'stream' && lower(message.subject) === lower(operand);
  if (operator === 'sender') {
    return (message) => lower(message.sender_email) === lower(operand) || String(message.sender_id) === operand;
  }
  const test = IS_TESTS[operand];
  if (!test) throw badRequest(`Operand ${operand} not supported.`);
  return test;
}
