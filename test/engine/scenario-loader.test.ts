import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ScenarioError } from '../../src/engine/scenario/scenario-schema.ts';
import { createTestRealm, IDS, TEST_SCENARIO, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm | undefined;
afterEach(() => realm?.engine.close());

const minimal = (extra: Record<string, unknown> = {}) => ({
  users: [{ email: 'a@x.test', full_name: 'A', role: 100 }],
  ...extra,
});

async function loadError(scenario: unknown): Promise<ScenarioError> {
  realm = await createTestRealm();
  const before = await realm.engine.db.messages.count();
  const error = await realm.engine.loadScenario(scenario).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ScenarioError);
  // Nothing written: the previous realm is intact.
  expect(await realm.engine.db.messages.count()).toBe(before);
  expect((await realm.engine.db.realm.get(1))?.name).toBe('Test Realm');
  return error as ScenarioError;
}

describe('scenario loading', () => {
  it('gives the same ids for the same file: users from 8, channels from 1, messages from 1', async () => {
    realm = await createTestRealm();
    const users = await realm.engine.db.users.orderBy('id').toArray();
    expect(users.filter((u) => !u.is_system_bot).map((u) => [u.id, u.email])).toEqual(
      TEST_SCENARIO.users.map((u, i) => [8 + i, u.email]),
    );
    expect((await realm.engine.db.channels.orderBy('id').toArray()).map((c) => c.name)).toEqual(
      TEST_SCENARIO.channels.map((c) => c.name),
    );
    expect((await realm.engine.db.messages.orderBy('id').primaryKeys())).toEqual([1, 2, 3, 4]);
  });

  it('fills the defaults of a new realm for every optional key', async () => {
    realm = await createTestRealm(minimal());
    expect(await realm.engine.db.realm.get(1)).toMatchObject({
      name: 'Offline Realm',
      host: 'offline-realm.test',
      empty_topic_display_name: 'general chat',
      topics_policy: 'allow_empty_topic',
      email_address_visibility: 1,
    });
    expect(await realm.engine.db.users.get(8)).toMatchObject({ role: 100, is_bot: false, is_active: true, timezone: '' });
  });

  it('gives a user without api_key a random 32-character key', async () => {
    realm = await createTestRealm(minimal());
    expect((await realm.engine.db.users.get(8))?.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('records the bot owner, folders, default channels and subscriptions', async () => {
    realm = await createTestRealm();
    expect((await realm.engine.db.users.get(IDS.bot))?.bot_owner_id).toBe(IDS.mark);
    expect((await realm.engine.db.channels.get(IDS.general))?.folder_id).toBe(1);
    expect((await realm.engine.db.realm.get(1))?.default_channel_ids).toEqual([IDS.general]);
    const secret = await realm.engine.db.subscriptions.where('[channel_id+active]').equals([IDS.secret, 1]).toArray();
    expect(secret.map((s) => s.user_id).sort((a, b) => a - b)).toEqual([IDS.olivia, IDS.mark]);
  });

  it('renders channel and folder descriptions from Markdown, as the API stores them', async () => {
    realm = await createTestRealm();
    await realm.engine.loadScenario({
      users: [{ email: 'a@x.test', full_name: 'A', role: 100, api_key: 'k'.repeat(32) }],
      channel_folders: [{ name: 'Loud', description: '*Shouting*' }],
      channels: [
        { name: 'general', description: '', subscribers: ['a@x.test'] },
        { name: 'noise', description: '**Loud** talk, see #**general**', folder: 'Loud', subscribers: ['a@x.test'] },
      ],
    });
    const get = async (path: string) => {
      const authorization = `Basic ${btoa(`a@x.test:${'k'.repeat(32)}`)}`;
      return (await realm!.engine.handle(new Request(`http://zulip.test/api/v1${path}`, { headers: { authorization } }))).json();
    };
    expect((await get('/streams/2')).stream.rendered_description).toMatch(
      /^<p><strong>Loud<\/strong> talk, see <a class="stream" data-stream-id="1" href="[^"]+">#general<\/a><\/p>$/,
    );
    expect((await get('/streams/1')).stream.rendered_description).toBe('');
    expect((await get('/channel_folders')).channel_folders[0].rendered_description).toBe('<p><em>Shouting</em></p>');
  });

  it('marks scenario history read except for the users listed in unread_for', async () => {
    realm = await createTestRealm({
      ...TEST_SCENARIO,
      messages: [{ sender: 'olivia@zulip.test', channel: 'general', topic: 't', content: 'x', unread_for: ['mia@zulip.test'] }],
    });
    const unread = await realm.engine.db.user_messages.where('[user_id+unread+message_id]').between([0, 1, 0], [Infinity, 1, Infinity]).toArray();
    expect(unread.map((r) => r.user_id)).toEqual([IDS.mia]);
  });

  it('applies reactions and stars', async () => {
    realm = await createTestRealm({
      ...TEST_SCENARIO,
      messages: [
        {
          sender: 'olivia@zulip.test',
          channel: 'general',
          topic: 't',
          content: 'x',
          reactions: [{ user: 'mark@zulip.test', emoji: 'tada' }],
          starred_by: ['mia@zulip.test'],
        },
      ],
    });
    expect(await realm.engine.db.reactions.toArray()).toMatchObject([
      { message_id: 1, user_id: IDS.mark, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' },
    ]);
    expect((await realm.engine.db.user_messages.get([IDS.mia, 1]))?.starred).toBe(1);
  });

  it('replaces the previous realm entirely', async () => {
    realm = await createTestRealm();
    await realm.engine.loadScenario(minimal());
    expect((await realm.engine.db.users.toArray()).filter((u) => !u.is_system_bot)).toHaveLength(1);
    expect(await realm.engine.db.messages.count()).toBe(0);
    expect(await realm.engine.db.channels.count()).toBe(0);
  });

  it('loads the demo scenario shipped in public/scenarios', async () => {
    const demo = JSON.parse(readFileSync(new URL('../../public/scenarios/demo.json', import.meta.url), 'utf8'));
    realm = await createTestRealm(demo);
    expect(await realm.engine.db.messages.count()).toBe(demo.messages.length);
    expect(await realm.engine.db.channels.count()).toBe(demo.channels.length);
  });
});

describe('scenario faults', () => {
  it('names the JSON path of an unknown key', async () => {
    const error = await loadError(minimal({ colour: 'blue' }));
    expect(error.path).toBe('$');
    expect(error.message).toContain('colour');
  });

  it('names the JSON path of a bad value inside a list', async () => {
    const error = await loadError({ users: [{ email: 'a@x.test', full_name: 'A' }, { email: 'not-an-email', full_name: 'B' }] });
    expect(error.path).toBe('$.users[1].email');
  });

  it('refuses an unknown role, naming the roles there are', async () => {
    const error = await loadError({ users: [{ email: 'a@x.test', full_name: 'A', role: 500 }] });
    expect(error.path).toBe('$.users[0].role');
    expect(error.message).toContain('expected one of 100 (owner), 200 (administrator), 300 (moderator), 400 (member), 600 (guest)');
  });

  it('refuses duplicate emails', async () => {
    const error = await loadError({ users: [{ email: 'a@x.test', full_name: 'A' }, { email: 'A@x.test', full_name: 'B' }] });
    expect(error.path).toBe('$.users[1].email');
  });

  it('refuses a subscriber who is not a user', async () => {
    const error = await loadError(minimal({ channels: [{ name: 'c', subscribers: ['ghost@x.test'] }] }));
    expect(error.path).toBe('$.channels[0].subscribers[0]');
  });

  it('refuses a channel message without a topic, and a direct message with one', async () => {
    const noTopic = await loadError(
      minimal({ channels: [{ name: 'c', subscribers: ['a@x.test'] }], messages: [{ sender: 'a@x.test', channel: 'c', content: 'x' }] }),
    );
    expect(noTopic.path).toBe('$.messages[0].topic');
    const dmTopic = await loadError(minimal({ messages: [{ sender: 'a@x.test', to: ['a@x.test'], topic: 't', content: 'x' }] }));
    expect(dmTopic.path).toBe('$.messages[0].topic');
  });

  it('reports a message the API would refuse at its path, and writes nothing', async () => {
    const error = await loadError({
      ...TEST_SCENARIO,
      messages: [
        { sender: 'olivia@zulip.test', channel: 'general', topic: 'ok', content: 'fine' },
        { sender: 'mark@zulip.test', channel: 'announce', topic: 'no', content: 'members cannot post here' },
      ],
    });
    expect(error.path).toBe('$.messages[1]');
    expect(error.message).toBe('$.messages[1]: You do not have permission to post in this channel.');
  });

  it('refuses an unknown emoji in a reaction', async () => {
    const error = await loadError({
      ...TEST_SCENARIO,
      messages: [{ sender: 'olivia@zulip.test', channel: 'general', topic: 't', content: 'x', reactions: [{ user: 'mark@zulip.test', emoji: 'no_such_emoji' }] }],
    });
    expect(error.path).toBe('$.messages[0]');
  });
});

describe('scenario history', () => {
  it("records each channel's first message id", async () => {
    realm = await createTestRealm();
    expect((await realm.engine.db.channels.get(IDS.general))?.first_message_id).toBe(1);
    expect((await realm.engine.db.channels.get(IDS.secret))?.first_message_id).toBe(3);
    expect((await realm.engine.db.channels.get(IDS.design))?.first_message_id).toBeNull();
  });
});
