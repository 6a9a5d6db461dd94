import { describe, expect, test } from 'vitest';
import type { InitialState } from '../../src/chat/api/wire-types.ts';
import { PresenceState, presenceStatus } from '../../src/chat/state/presence.ts';

describe('a presence as upstream reads it', () => {
  test('active within the offline threshold of an active report, idle within it of a connection, else offline', () => {
    expect(presenceStatus({ active_timestamp: 1000, idle_timestamp: 1000 }, 1139, 140)).toBe('active');
    expect(presenceStatus({ active_timestamp: 1000, idle_timestamp: 1100 }, 1140, 140)).toBe('idle');
    expect(presenceStatus({ active_timestamp: 1000, idle_timestamp: 1100 }, 1240, 140)).toBe('offline');
    expect(presenceStatus(undefined, 1240, 140)).toBe('offline');
  });
});

describe('the presence state', () => {
  const now = Math.floor(Date.now() / 1000);
  const initial = {
    presences: { '9': { active_timestamp: now - 10, idle_timestamp: now - 10 } },
    presence_last_update_id: 4,
    server_timestamp: now,
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 140,
  } as unknown as InitialState;

  test('a late answer never moves a timestamp back', () => {
    const state = new PresenceState(initial);
    state.applyEvent({ presences: { '9': { active_timestamp: now - 500, idle_timestamp: now - 500 } } });
    expect(state.presences.value.get(9)).toEqual({ active_timestamp: now - 10, idle_timestamp: now - 10 });
    expect(state.statusOf(9)).toBe('active');
  });

  test('ages are read on the server’s clock, not the browser’s', () => {
    // The server's clock runs 200 s behind this one: a report 10 s old by it is still active.
    const state = new PresenceState({ ...initial, server_timestamp: now - 200, presences: { '9': { active_timestamp: now - 210, idle_timestamp: now - 210 } } });
    expect(state.statusOf(9)).toBe('active');
  });

  test('a report sends the last update id and takes the answer’s, and its presences', async () => {
    const state = new PresenceState(initial);
    const sent: Record<string, unknown>[] = [];
    const api = {
      post: async (path: string, params: Record<string, unknown>) => {
        expect(path).toBe('/users/me/presence');
        sent.push(params);
        return { presences: { '15': { active_timestamp: now, idle_timestamp: now } }, presence_last_update_id: 7, server_timestamp: now };
      },
    } as never;
    await state.report(api, 'active');
    await state.report(api, 'idle');
    expect(sent).toEqual([
      { status: 'active', slim_presence: true, last_update_id: 4 },
      { status: 'idle', slim_presence: true, last_update_id: 7 },
    ]);
    expect(state.statusOf(15)).toBe('active');
  });
});
