import { expect } from 'vitest';
import { type ApiAnswer, callApi } from './tabs.ts';

/** Calls the browser tests make on the demo realm, as its owner and an administrator. */
export const OLIVIA = 'olivia@lakeside.test:pbGan8CP9oJG8HYYILCxegSkvA8TGKc7';
export const MARCUS = 'marcus@lakeside.test:31ixqtQ5Vvb44cLyEWHkWV1NXtrMWCJ4';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function sendToGeneral(tab: string, topic: string, content: string): Promise<ApiAnswer> {
  return callApi(tab, { method: 'POST', path: '/messages', auth: OLIVIA, params: { type: 'stream', to: 'general', topic, content } });
}

/** The topic's newest messages, as raw Markdown. */
export async function topicMessages(tab: string, topic: string): Promise<{ id: number; content: string }[]> {
  const answer = await callApi(tab, {
    method: 'GET',
    path: '/messages',
    auth: OLIVIA,
    params: { anchor: 'newest', num_before: 10, num_after: 0, apply_markdown: false, narrow: [{ operator: 'topic', operand: topic }] },
  });
  return (answer.body.messages as { id: number; content: string }[]).map(({ id, content }) => ({ id, content }));
}

/** A queue for message events; its id. */
export async function registerQueue(tab: string, auth: string): Promise<string> {
  const answer = await callApi(tab, { method: 'POST', path: '/register', auth, params: { event_types: ['message'] } });
  expect(answer.status).toBe(200);
  return answer.body.queue_id as string;
}
