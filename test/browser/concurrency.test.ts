import { afterAll, beforeAll, describe, expect, inject, onTestFinished, test } from 'vitest';
import { commands } from 'vitest/browser';
import { MARCUS, OLIVIA, sleep } from './demo-calls.ts';
import { callApi, inTab } from './tabs.ts';

// Users of the demo realm (public/scenarios/demo.json), all subscribed to general.
const HANNAH = 'hannah@lakeside.test:jcSiR4rna0FrGZHitMQUwGPA6nlZSMyX';
const origin = inject('appOrigin');

interface Sent {
  status: number;
  id: number;
  content: string;
}

/** Fires `count` POST /messages at once from the tab and waits for every answer. */
function sendAtOnce(tab: string, arg: { auth: string; topic: string; prefix: string; count: number }): Promise<Sent[]> {
  return inTab(
    tab,
    async ({ auth, topic, prefix, count }) =>
      Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const content = `${prefix} #${i}`;
          const response = await fetch('/api/v1/messages', {
            method: 'POST',
            headers: { Authorization: `Basic ${btoa(auth)}`, 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ type: 'stream', to: 'general', topic, content }),
          });
          return { status: response.status, id: ((await response.json()) as { id: number }).id, content };
        }),
      ),
    arg,
  );
}

/**
 * Long-polls a queue from the tab, as a client does, until `expected` message events of the
 * topic arrived or `timeoutMs` passed; returns the message ids in the order they came.
 */
function collectMessageIds(tab: string, arg: { auth: string; queueId: string; topic: string; expected: number; timeoutMs: number }): Promise<number[]> {
  return inTab(
    tab,
    async ({ auth, queueId, topic, expected, timeoutMs }) => {
      const ids: number[] = [];
      const deadline = performance.now() + timeoutMs;
      let lastEventId = -1;
      while (ids.length < expected && performance.now() < deadline) {
        const query = new URLSearchParams({ queue_id: queueId, last_event_id: String(lastEventId) });
        let body: { result: string; events: { id: number; type: string; message?: { id: number; subject: string } }[] };
        try {
          const response = await fetch(`/api/v1/events?${query}`, {
            headers: { Authorization: `Basic ${btoa(auth)}` },
            signal: AbortSignal.timeout(Math.max(1, deadline - performance.now())),
          });
          body = await response.json();
        } catch {
          break;
        }
        if (body.result !== 'success') throw new Error(`GET /events failed: ${JSON.stringify(body)}`);
        for (const event of body.events) {
          lastEventId = Math.max(lastEventId, event.id);
          if (event.type === 'message' && event.message?.subject === topic) ids.push(event.message.id);
        }
      }
      return ids;
    },
    arg,
  );
}

async function registerForMessages(tab: string, auth: string): Promise<string> {
  const answer = await callApi(tab, { method: 'POST', path: '/register', auth, params: { event_types: ['message'] } });
  expect(answer.status).toBe(200);
  return answer.body.queue_id as string;
}

interface Shown {
  id: number;
  content: string;
  flags: string[];
}

async function topicAsSeenBy(tab: string, auth: string, topic: string): Promise<Shown[]> {
  const answer = await callApi(tab, {
    method: 'GET',
    path: '/messages',
    auth,
    params: { anchor: 'newest', num_before: 1000, num_after: 0, apply_markdown: false, narrow: [{ operator: 'topic', operand: topic }] },
  });
  expect(answer.status).toBe(200);
  return (answer.body.messages as Shown[]).map(({ id, content, flags }) => ({ id, content, flags }));
}

interface UnreadState {
  topicUnread: number[];
  mentions: number[];
}

async function unreadAsSeenBy(tab: string, auth: string, topic: string): Promise<UnreadState> {
  const answer = await callApi(tab, { method: 'POST', path: '/register', auth, params: { fetch_event_types: ['message', 'update_message_flags'] } });
  const unread = answer.body.unread_msgs as { streams: { topic: string; unread_message_ids: number[] }[]; mentions: number[] };
  return {
    topicUnread: unread.streams.filter((s) => s.topic === topic).flatMap((s) => s.unread_message_ids),
    mentions: unread.mentions,
  };
}

const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);

// One visitor for the file (the demo realm loads once); each test has its own topic and closes its tabs.
describe('concurrent sends in the browser host', () => {
  let profile: string;
  beforeAll(async () => {
    profile = await commands.openProfile();
  });
  afterAll(async () => {
    await commands.closeProfile(profile);
  });

  async function openTab(): Promise<string> {
    const tab = await commands.openTab(profile, `${origin}/`);
    onTestFinished(() => commands.closeTab(tab).catch(() => undefined));
    return tab;
  }

  test('two tabs sending at once lose nothing', async () => {
    const topic = 'two tabs at once';
    const tabs = [await openTab(), await openTab()];
    const queues = await Promise.all(tabs.map((tab) => registerForMessages(tab, MARCUS)));
    const heard = tabs.map((tab, i) => collectMessageIds(tab, { auth: MARCUS, queueId: queues[i], topic, expected: 100, timeoutMs: 20_000 }));

    const started = performance.now();
    const sent = (await Promise.all(tabs.map((tab, i) => sendAtOnce(tab, { auth: OLIVIA, topic, prefix: `tab ${i}`, count: 50 })))).flat();
    console.info(`2 tabs x 50 concurrent sends answered in ${(performance.now() - started).toFixed(0)} ms`);

    expect(sent.filter((s) => s.status !== 200)).toEqual([]);
    const ids = ascending(sent.map((s) => s.id));
    expect(new Set(ids).size).toBe(100);
    const stored = await topicAsSeenBy(tabs[0], MARCUS, topic);
    expect(stored.map(({ id, content }) => ({ id, content }))).toEqual(
      [...sent].sort((a, b) => a.id - b.id).map(({ id, content }) => ({ id, content })),
    );
    for (const received of await Promise.all(heard)) {
      expect(received).toHaveLength(100);
      expect(ascending(received)).toEqual(ids);
    }
  });

  /**
   * Starts `count` slow sends (long content with a mention) from the tab without waiting for
   * them, and closes the tab once `closeAfter` of them have been answered.
   */
  async function closeMidSend(tab: string, topic: string, count: number, closeAfter: number): Promise<string[]> {
    const contents = Array.from({ length: count }, (_, i) => `@**Hannah Kim** ${'a *long* line of text\n'.repeat(400)}#${i}`);
    await inTab(
      tab,
      async ({ auth, topic, contents }) => {
        const progress = { answered: 0 };
        (window as unknown as { sendProgress: typeof progress }).sendProgress = progress;
        for (const content of contents) {
          void fetch('/api/v1/messages', {
            method: 'POST',
            headers: { Authorization: `Basic ${btoa(auth)}`, 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ type: 'stream', to: 'general', topic, content, read_by_sender: 'true' }),
          }).then(() => progress.answered++);
        }
      },
      { auth: OLIVIA, topic, contents },
    );
    const answered = () => inTab(tab, async () => (window as unknown as { sendProgress: { answered: number } }).sendProgress.answered, null);
    while ((await answered()) < closeAfter) await sleep(5);
    await commands.closeTab(tab);
    return contents;
  }

  /** Sends already relayed to a living engine still complete after their tab closed: wait for the last. */
  async function settledTopic(tab: string, topic: string): Promise<Shown[]> {
    let previous = await topicAsSeenBy(tab, MARCUS, topic);
    for (;;) {
      await sleep(250);
      const current = await topicAsSeenBy(tab, MARCUS, topic);
      if (current.length === previous.length) return current;
      previous = current;
    }
  }

  /** Every message of the topic is complete for each recipient; the missing ones left no trace. */
  async function expectWholeOrNone(tab: string, topic: string, contents: string[]): Promise<number> {
    const byMarcus = await settledTopic(tab, topic);
    const ids = byMarcus.map((m) => m.id);
    expect(new Set(byMarcus.map((m) => m.content)).size).toBe(byMarcus.length);
    for (const message of byMarcus) expect(contents).toContain(message.content);
    // A missing flag row would show as a "historical" message or drop out of the unread counts.
    expect(byMarcus.map((m) => m.flags)).toEqual(ids.map(() => []));
    expect(await topicAsSeenBy(tab, HANNAH, topic)).toEqual(byMarcus.map((m) => ({ ...m, flags: ['mentioned'] })));
    expect(await topicAsSeenBy(tab, OLIVIA, topic)).toEqual(byMarcus.map((m) => ({ ...m, flags: ['read'] })));
    expect((await unreadAsSeenBy(tab, MARCUS, topic)).topicUnread).toEqual(ids);
    const hannah = await unreadAsSeenBy(tab, HANNAH, topic);
    expect(hannah.topicUnread).toEqual(ids);
    expect(hannah.mentions).toEqual(expect.arrayContaining(ids));
    expect((await unreadAsSeenBy(tab, OLIVIA, topic)).topicUnread).toEqual([]);
    return ids.length;
  }

  test('a tab closed in the middle of its sends leaves each message whole or absent while another tab keeps the engine', async () => {
    const topic = 'closed mid-send';
    const observer = await openTab();
    const sender = await openTab();

    const contents = await closeMidSend(sender, topic, 40, 5);

    const landed = await expectWholeOrNone(observer, topic, contents);
    console.info(`closing the sending tab: ${landed} of ${contents.length} messages landed`);
    expect(landed).toBeGreaterThanOrEqual(5);
  });

  test('closing the only tab in the middle of its sends, which stops the engine, leaves each message whole or absent', async () => {
    const topic = 'engine stopped mid-send';
    const sender = await openTab();

    const contents = await closeMidSend(sender, topic, 40, 5);
    const reopened = await openTab();

    const landed = await expectWholeOrNone(reopened, topic, contents);
    console.info(`closing the only tab: ${landed} of ${contents.length} messages landed`);
    expect(landed).toBeGreaterThanOrEqual(5);
  });
});
