import { expect, inject, test } from 'vitest';
import { commands } from 'vitest/browser';
import { callApi } from './tabs.ts';

const OLIVIA = 'olivia@lakeside.test:pbGan8CP9oJG8HYYILCxegSkvA8TGKc7';
const origin = inject('appOrigin');

test('keeps the realm when the browser quits and starts again on the same profile', async () => {
  const first = await commands.openDiskProfile();
  const tab = await commands.openTab(first.profile, `${origin}/`);
  const sent = await callApi(tab, {
    method: 'POST',
    path: '/messages',
    auth: OLIVIA,
    params: { type: 'channel', to: 'general', topic: 'restart', content: 'written before the browser quit' },
  });
  expect(sent.status).toBe(200);
  await commands.closeProfile(first.profile);

  const again = await commands.openDiskProfile(first.userDataDir);
  try {
    const reopened = await commands.openTab(again.profile, `${origin}/`);
    const page = await callApi(reopened, {
      method: 'GET',
      path: '/messages',
      auth: OLIVIA,
      params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'topic', operand: 'restart' }] },
    });
    expect(page.status).toBe(200);
    const messages = page.body.messages as Array<{ id: number; content: string }>;
    expect(messages.map((m) => m.id)).toEqual([(sent.body as { id: number }).id]);
    expect(messages[0].content).toBe('<p>written before the browser quit</p>');
  } finally {
    await commands.closeProfile(again.profile);
  }
});
