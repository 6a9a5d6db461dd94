import type { RefusedMessage } from '../../engine/storage/rows.ts';

/** A send's fields kept with its refusal, so the app can give its author the text back. */
export function refusedMessage(params: Record<string, string>): RefusedMessage {
  const { type = '', to = '', topic, content = '' } = params;
  return topic === undefined ? { type, to, content } : { type, to, topic, content };
}
