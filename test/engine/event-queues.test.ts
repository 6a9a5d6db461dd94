import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock/clock.ts';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { EventQueues } from '../../src/engine/events/event-queues.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';

const options = (userId: number, extra: Partial<QueueOptions> = {}): QueueOptions => ({
  userId,
  eventTypes: null,
  narrow: [],
  allPublicStreams: false,
  applyMarkdown: true,
  clientGravatar: false,
  slimPresence: false,
  capabilities: NO_CAPABILITIES,
  ...extra,
});

const notice = (userIds: number[], type = 'typing') => ({ event: { type, op: 'start' }, users: userIds });

describe('event queues', () => {
  it('gives each queue its own increasing event ids starting at 0', () => {
    const queues = new EventQueues(new ManualClock());
    const a = queues.create(options(1));
    const b = queues.create(options(1));
    queues.deliver([notice([1]), notice([1])]);
    expect(a.events.map((e) => e.id)).toEqual([0, 1]);
    expect(b.events.map((e) => e.id)).toEqual([0, 1]);
  });

  it('delivers only to the queues of the users named in the notice', () => {
    const queues = new EventQueues(new ManualClock());
    const mine = queues.create(options(1));
    const theirs = queues.create(options(2));
    queues.deliver([notice([1])]);
    expect(mine.events).toHaveLength(1);
    expect(theirs.events).toHaveLength(0);
  });

  it('keeps events until a later poll acknowledges them, so a lost reply loses nothing', async () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1));
    queues.deliver([notice([1]), notice([1])]);
    const first = await queues.poll(queue, -1, true);
    expect(first.map((e) => e.id)).toEqual([0, 1]);
    const again = await queues.poll(queue, -1, true);
    expect(again.map((e) => e.id)).toEqual([0, 1]);
    const acknowledged = await queues.poll(queue, 1, true);
    expect(acknowledged).toEqual([]);
  });

  it('refuses an acknowledgement of an event that was never in the queue', async () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1));
    queues.deliver([notice([1])]);
    await expect(queues.poll(queue, 5, true)).rejects.toMatchObject({ message: 'Event 5 was not in this queue', code: 'BAD_REQUEST' });
  });

  it('refuses an acknowledgement older than what was already pruned', async () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1));
    queues.deliver([notice([1]), notice([1])]);
    await queues.poll(queue, 1, true);
    await expect(queues.poll(queue, 0, true)).rejects.toMatchObject({ message: 'An event newer than 0 has already been pruned!' });
  });

  it('answers a waiting poll as soon as an event arrives', async () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1));
    const pending = queues.poll(queue, -1, false);
    queues.deliver([notice([1])]);
    expect((await pending).map((e) => e.type)).toEqual(['typing']);
  });

  it('sends a heartbeat to a waiting poll within 45 to 55 seconds', async () => {
    const clock = new ManualClock();
    const queues = new EventQueues(clock);
    const queue = queues.create(options(1, { eventTypes: new Set(['message']) }));
    let answered: unknown = null;
    void queues.poll(queue, -1, false).then((events) => (answered = events));
    clock.advance(44_999);
    await Promise.resolve();
    expect(answered).toBeNull();
    clock.advance(10_001);
    await Promise.resolve();
    expect(answered).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('finishes an older waiting poll when a newer poll arrives on the same queue', async () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1));
    const older = queues.poll(queue, -1, false);
    const newer = queues.poll(queue, -1, false);
    expect(await older).toEqual([]);
    queues.deliver([notice([1])]);
    expect(await newer).toHaveLength(1);
  });

  it('releases a waiting poll whose request was aborted', async () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1));
    const controller = new AbortController();
    const pending = queues.poll(queue, -1, false, controller.signal);
    controller.abort();
    expect(await pending).toEqual([]);
    expect(queue.waiter).toBeNull();
  });

  it('answers at once, without waiting, a poll whose request was aborted before it began', async () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1));
    const pending = queues.poll(queue, -1, false, AbortSignal.abort());

    expect(queue.waiter).toBeNull();
    expect(await pending).toEqual([]);
  });

  it('discards a queue after ten minutes without a poll, then answers BAD_EVENT_QUEUE_ID', () => {
    const clock = new ManualClock();
    const queues = new EventQueues(clock);
    const queue = queues.create(options(1));
    clock.advance(599_000);
    expect(queues.get(queue.id, 1)).toBe(queue);
    clock.advance(61_000);
    expect(() => queues.get(queue.id, 1)).toThrow(expect.objectContaining({ code: 'BAD_EVENT_QUEUE_ID', extra: { queue_id: queue.id } }));
    expect(queues.size).toBe(0);
  });

  it('never discards a queue while a poll is waiting on it', async () => {
    const clock = new ManualClock();
    const queues = new EventQueues(clock);
    const queue = queues.create(options(1, { eventTypes: new Set(['nothing']) }));
    void queues.poll(queue, -1, false);
    // Heartbeats answer the poll; re-poll each time as a client would.
    for (let minute = 0; minute < 20; minute++) {
      clock.advance(60_000);
      await Promise.resolve();
      if (!queue.waiter) void queues.poll(queue, queue.events.at(-1)?.id ?? -1, false);
    }
    expect(queues.get(queue.id, 1)).toBe(queue);
  });

  it("refuses another user's queue id", () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1));
    expect(() => queues.get(queue.id, 2)).toThrow(expect.objectContaining({ code: 'BAD_EVENT_QUEUE_ID' }));
  });

  it('filters by the queue event_types, except heartbeats', () => {
    const queues = new EventQueues(new ManualClock());
    const queue = queues.create(options(1, { eventTypes: new Set(['message']) }));
    queues.deliver([notice([1], 'typing')]);
    expect(queue.events).toEqual([]);
  });
});
