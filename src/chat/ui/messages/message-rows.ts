import type { Message } from '../../api/wire-types.ts';
import { sortedIds } from '../../narrow/narrow.ts';

/** One line of the message list: a recipient header (channel > topic, or the DM's people, and the day) or a message. */
export type Row = { kind: 'recipient'; key: string; message: Message } | { kind: 'message'; key: string; message: Message; showSender: boolean };

/** Messages of one sender within five minutes share one sender line, as upstream groups them. */
const SAME_SENDER_SECONDS = 5 * 60;

function recipientKey(message: Message): string {
  return message.type === 'stream'
    ? `s${message.stream_id}:${message.subject.toLowerCase()}`
    : `d${sortedIds((message.display_recipient as { id: number }[]).map((u) => u.id))}`;
}

/** Messages (id order) grouped like upstream's: a header, which names the day, each time the conversation or the day changes. */
export function messageRows(messages: readonly Message[], dayKey: (ts: number) => string): Row[] {
  const rows: Row[] = [];
  let previous: Message | undefined;
  for (const message of messages) {
    const newDay = !previous || dayKey(previous.timestamp) !== dayKey(message.timestamp);
    const newRecipient = !previous || recipientKey(previous) !== recipientKey(message);
    if (newRecipient || newDay) rows.push({ kind: 'recipient', key: `r-${message.id}`, message });
    const showSender =
      newRecipient || newDay || previous?.sender_id !== message.sender_id || message.timestamp - (previous?.timestamp ?? 0) > SAME_SENDER_SECONDS;
    rows.push({ kind: 'message', key: `m-${message.id}`, message, showSender });
    previous = message;
  }
  return rows;
}
