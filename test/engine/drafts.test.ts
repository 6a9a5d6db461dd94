import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const success = { result: 'success', msg: '' };
const channelDraft = { type: 'stream', to: [IDS.general], topic: 'plans', content: 'Shall we meet?' };
const create = (drafts: unknown[], user: 'mark' | 'mia' = 'mark') => realm.as(user).post('/drafts', { drafts });

describe('POST /drafts', () => {
  it("creates the drafts in order, answers their ids and tells only the owner's queues", async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);
    const { status, body } = await create([
      { ...channelDraft, timestamp: 1595479019.25 },
      { type: 'private', to: [IDS.mia], topic: 'ignored', content: '\n\nHi Mia  \n' },
      { type: '', to: [IDS.general], topic: 'ignored', content: 'nowhere yet' },
    ]);
    expect(status).toBe(200);
    expect(body).toEqual({ ...success, ids: [1, 2, 3] });
    const drafts = [
      { id: 1, type: 'stream', to: [IDS.general], topic: 'plans', content: 'Shall we meet?', timestamp: 1595479019 },
      { id: 2, type: 'private', to: [IDS.mia], topic: '', content: 'Hi Mia', timestamp: NOW },
      { id: 3, type: '', to: [], topic: '', content: 'nowhere yet', timestamp: NOW },
    ];
    expect(mark.events).toEqual([{ id: 0, type: 'drafts', op: 'add', drafts }]);
    expect(mia.events).toEqual([]);
    expect(await realm.engine.db.drafts.get(1)).toEqual({
      id: 1, user_id: IDS.mark, type: 'stream', to: [IDS.general], topic: 'plans', content: 'Shall we meet?', last_edit_time: 1595479019.25,
    });
  });

  it('lists the other participants of a direct draft, and the caller alone for a DM with oneself', async () => {
    const { body } = await create([
      { type: 'private', to: [IDS.mia, IDS.mark, IDS.adam], topic: '', content: 'group' },
      { type: 'private', to: [IDS.mark, IDS.mia], topic: '', content: 'one to one' },
      { type: 'private', to: [IDS.mark], topic: '', content: 'note to self' },
      { type: 'private', to: [], topic: '', content: 'nobody yet' },
    ]);
    const drafts = (await realm.as('mark').get('/drafts')).body.drafts as { to: number[]; type: string }[];
    expect(body.ids).toEqual([1, 2, 3, 4]);
    expect(drafts.map(({ type, to }) => ({ type, to }))).toEqual([
      { type: 'private', to: [IDS.adam, IDS.mia] },
      { type: 'private', to: [IDS.mia] },
      { type: 'private', to: [IDS.mark] },
      { type: '', to: [] },
    ]);
  });

  it('cuts a long topic and content as a message would be', async () => {
    await create([{ ...channelDraft, topic: 't'.repeat(70), content: 'c'.repeat(10050) }]);
    const [draft] = (await realm.as('mark').get('/drafts')).body.drafts;
    expect(draft.topic).toBe(`${'t'.repeat(57)}...`);
    expect(draft.content).toHaveLength(10000);
    expect(draft.content.endsWith('\n[message truncated]')).toBe(true);
  });

  it.each([
    ['a channel draft without exactly one channel', [{ ...channelDraft, to: [IDS.general, IDS.design] }], 'Must specify exactly 1 channel ID for channel messages'],
    ['an unknown channel', [{ ...channelDraft, to: [999] }], 'Invalid channel ID'],
    ['an unknown user', [{ type: 'private', to: [999], topic: '', content: 'x' }], 'Invalid user ID 999'],
    ['a negative timestamp', [{ ...channelDraft, timestamp: -1 }], 'Timestamp must not be negative.'],
    ['a NUL byte in the topic', [{ ...channelDraft, topic: 'a\0b' }], 'Topic must not contain null bytes'],
    ['a NUL byte in the content', [{ ...channelDraft, content: 'a\0b' }], 'Message must not contain null bytes'],
    ['blank content', [{ ...channelDraft, content: '  ' }], 'drafts[0]["content"] cannot be blank'],
    ['an unknown type', [{ ...channelDraft, type: 'direct' }], 'Invalid drafts[0]["type"]'],
    ['a missing key', [{ type: 'stream', to: [IDS.general], content: 'x' }], 'drafts[0]["topic"] is missing'],
    ['an extra key', [{ ...channelDraft, id: 4 }], 'Argument "id" at drafts[0] is unexpected'],
    ['a recipient that is not an integer', [{ ...channelDraft, to: ['general'] }], 'drafts[0]["to"][0] is not an integer'],
    ['a draft that is not an object', ['hello'], 'drafts[0] is not a dict'],
    ['a timestamp past the year 9999', [{ ...channelDraft, timestamp: 1e12 }], 'drafts[0]["timestamp"] is too large'],
    ['one bad draft among good ones', [channelDraft, { ...channelDraft, to: [] }], 'Must specify exactly 1 channel ID for channel messages'],
  ])('refuses %s, creating nothing', async (_, drafts, msg) => {
    await expectRefused(realm, () => create(drafts), error(msg));
  });

  it('refuses a private channel the caller is not subscribed to', async () => {
    await expectRefused(realm, () => create([{ ...channelDraft, to: [IDS.secret] }], 'mia'), error('Invalid channel ID'));
  });

  it('refuses a user who turned drafts synchronization off', async () => {
    await realm.as('mark').patch('/settings', { enable_drafts_synchronization: false });
    await expectRefused(realm, () => create([channelDraft]), error('User has disabled synchronizing drafts.'));
  });
});

describe('GET /drafts', () => {
  it("lists the caller's drafts, least recently edited first, with their count", async () => {
    await create([{ ...channelDraft, timestamp: 300 }, { ...channelDraft, content: 'older', timestamp: 100 }]);
    await create([{ ...channelDraft, content: 'hers' }], 'mia');
    const { status, body } = await realm.as('mark').get('/drafts');
    expect(status).toBe(200);
    expect(body).toEqual({
      ...success,
      count: 2,
      drafts: [
        { id: 2, type: 'stream', to: [IDS.general], topic: 'plans', content: 'older', timestamp: 100 },
        { id: 1, type: 'stream', to: [IDS.general], topic: 'plans', content: 'Shall we meet?', timestamp: 300 },
      ],
    });
  });

  it('refuses a user who turned drafts synchronization off', async () => {
    await realm.as('mark').patch('/settings', { enable_drafts_synchronization: false });
    expect(await realm.as('mark').get('/drafts')).toEqual({ status: 400, body: error('User has disabled synchronizing drafts.') });
  });
});

describe('PATCH /drafts/{draft_id}', () => {
  it('replaces the whole draft and sends it', async () => {
    await create([{ ...channelDraft, timestamp: 100 }]);
    const mark = openQueue(realm.engine, IDS.mark);
    const draft = { type: 'private', to: [IDS.mia, IDS.adam], topic: '', content: 'Changed my mind' };
    expect(await realm.as('mark').patch('/drafts/1', { draft })).toEqual({ status: 200, body: success });
    const expected = { id: 1, type: 'private', to: [IDS.adam, IDS.mia], topic: '', content: 'Changed my mind', timestamp: NOW };
    expect(mark.events).toEqual([{ id: 0, type: 'drafts', op: 'update', draft: expected }]);
    expect((await realm.as('mark').get('/drafts')).body.drafts).toEqual([expected]);
  });

  it("refuses an unknown draft, or someone else's, with 404", async () => {
    await create([channelDraft], 'mia');
    for (const id of [1, 42]) {
      await expectRefused(realm, () => realm.as('mark').patch(`/drafts/${id}`, { draft: channelDraft }), error('Draft does not exist'), 404);
    }
  });

  it('refuses an invalid replacement, changing nothing', async () => {
    await create([channelDraft]);
    await expectRefused(realm, () => realm.as('mark').patch('/drafts/1', { draft: { ...channelDraft, to: [IDS.secret, 1] } }), error('Must specify exactly 1 channel ID for channel messages'));
    await expectRefused(realm, () => realm.as('mark').patch('/drafts/1', {}), { ...error("Missing 'draft' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'draft' });
  });
});

describe('DELETE /drafts/{draft_id}', () => {
  it('deletes the draft and tells the owner', async () => {
    await create([channelDraft]);
    const mark = openQueue(realm.engine, IDS.mark);
    expect(await realm.as('mark').delete('/drafts/1')).toEqual({ status: 200, body: success });
    expect((await realm.as('mark').get('/drafts')).body.drafts).toEqual([]);
    expect(mark.events).toEqual([{ id: 0, type: 'drafts', op: 'remove', draft_id: 1 }]);
  });

  it("refuses an unknown draft, or someone else's, with 404", async () => {
    await create([channelDraft], 'mia');
    await expectRefused(realm, () => realm.as('mark').delete('/drafts/1'), error('Draft does not exist'), 404);
  });
});

describe('turning drafts synchronization off', () => {
  it('deletes the stored drafts without draft events', async () => {
    await create([channelDraft]);
    const mark = openQueue(realm.engine, IDS.mark, { eventTypes: new Set(['drafts']) });
    await realm.as('mark').patch('/settings', { enable_drafts_synchronization: false });
    // GET /drafts is refused while synchronization is off: only the storage shows the drafts gone.
    expect(await realm.engine.db.drafts.toArray()).toEqual([]);
    expect(mark.events).toEqual([]);
  });
});

describe('the drafts register section', () => {
  it("carries the caller's drafts, most recently edited first", async () => {
    await create([{ ...channelDraft, timestamp: 100 }, { ...channelDraft, content: 'newer', timestamp: 200 }]);
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['drafts'] });
    expect(body.drafts).toEqual([
      { id: 2, type: 'stream', to: [IDS.general], topic: 'plans', content: 'newer', timestamp: 200 },
      { id: 1, type: 'stream', to: [IDS.general], topic: 'plans', content: 'Shall we meet?', timestamp: 100 },
    ]);
    expect((await realm.as('mia').post('/register', { fetch_event_types: ['drafts'] })).body.drafts).toEqual([]);
  });
});
