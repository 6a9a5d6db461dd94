import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../../src/engine/engine.ts';
import { RealmDatabase } from '../../src/engine/storage/database.ts';
import { createTestRealm, openQueue, IDS, TEST_SCENARIO, TestClient, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);

const react = (user: TestUser, id: number, params: Record<string, unknown>) => realm.as(user).post(`/messages/${id}/reactions`, params);
const unreact = (user: TestUser, id: number, params: Record<string, unknown>) => realm.as(user).delete(`/messages/${id}/reactions`, params);
/** The reactions on a message as a subscriber reads them with GET /messages/{id}, oldest first. */
async function reactionsOn(id: number, viewer: TestUser = 'mark'): Promise<Record<string, any>[]> {
  const { status, body } = await realm.as(viewer).get(`/messages/${id}`);
  expect(status).toBe(200);
  return body.message.reactions;
}

/** The messages in `user`'s own history (those they received), with their flags. */
async function received(user: TestUser): Promise<[number, string[]][]> {
  const { body } = await realm.as(user).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 });
  return body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]);
}
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

const MIA = { user_id: IDS.mia, email: 'mia@zulip.test', full_name: 'Mia Member' };

describe('POST /messages/{id}/reactions', () => {
  it('adds a unicode reaction by name and tells everyone who can see the message', async () => {
    const olivia = queueFor(IDS.olivia);
    const { status, body } = await react('mia', 2, { emoji_name: 'octopus' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOn(2)).toEqual([
      {
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
        user_id: IDS.mia,
      },
    ]);
    expect(olivia.events).toEqual([
      { id: 0, type: 'reaction', op: 'add', user_id: IDS.mia, message_id: 2, emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user: MIA },
    ]);
  });

  it("shows the reacting user's dummy email to viewers who may not see real emails", async () => {
    // No endpoint changes realm settings yet.
    await realm.engine.db.realm.update(1, { email_address_visibility: 3 });
    const mark = queueFor(IDS.mark);
    await react('mia', 2, { emoji_name: 'octopus' });
    expect(mark.events[0]).toMatchObject({ user: { user_id: IDS.mia, email: `user${IDS.mia}@zulip.test`, full_name: 'Mia Member' } });
  });

  it('refuses the same reaction twice with REACTION_ALREADY_EXISTS', async () => {
    await react('mia', 2, { emoji_name: 'octopus' });
    const { status, body } = await react('mia', 2, { emoji_name: 'octopus', emoji_code: '1f419' });
    expect(status).toBe(400);
    expect(body).toEqual(error('Reaction already exists.', 'REACTION_ALREADY_EXISTS'));
    expect((await reactionsOn(2)).map((r) => [r.user_id, r.emoji_name, r.emoji_code])).toEqual([[IDS.mia, 'octopus', '1f419']]);
  });

  it("counts another name for an emoji already on the message as a vote, keeping the first name", async () => {
    await react('mia', 2, { emoji_name: '+1' });
    await react('mark', 2, { emoji_name: 'thumbsup' });
    expect((await reactionsOn(2)).map((r) => [r.user_id, r.emoji_name, r.emoji_code])).toEqual([
      [IDS.mia, '+1', '1f44d'],
      [IDS.mark, '+1', '1f44d'],
    ]);
  });

  it('refuses unknown emoji names and mismatched or invalid codes', async () => {
    expect((await react('mia', 2, { emoji_name: 'no_such_emoji' })).body).toEqual(error("Emoji 'no_such_emoji' does not exist"));
    expect((await react('mia', 2, { emoji_name: 'octopus', emoji_code: 'zzzz' })).body).toEqual(error('Invalid emoji code.'));
    expect((await react('mia', 2, { emoji_name: 'tada', emoji_code: '1f419' })).body).toEqual(error('Invalid emoji name.'));
    expect((await react('mia', 2, { emoji_name: 'octopus', reaction_type: 'unicode_emojis' })).body).toEqual(error('Invalid emoji type.'));
    // Upstream's name for the service's extra emoji is taken, and checks its code as ours does.
    expect((await react('mia', 2, { emoji_name: 'octopus', reaction_type: 'zulip_extra_emoji' })).body).toEqual(error('Invalid emoji code.'));
    expect(await reactionsOn(2)).toEqual([]);
  });

  it('requires emoji_name', async () => {
    const { body } = await react('mia', 2, { emoji_code: '1f419' });
    expect(body).toEqual({ result: 'error', msg: "Missing 'emoji_name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'emoji_name' });
  });

  it('supports the service extra emoji "zulip"', async () => {
    await react('mia', 2, { emoji_name: 'zulip' });
    expect(await reactionsOn(2)).toMatchObject([{ user_id: IDS.mia, emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }]);
    expect(await reactionsOn(2)).toHaveLength(1);
    expect((await react('mark', 2, { emoji_name: 'zulip', emoji_code: 'other', reaction_type: 'service_extra_emoji' })).body).toEqual(error('Invalid emoji code.'));
  });

  it('supports custom realm emoji by name or id, refusing deactivated ones', async () => {
    // No endpoint uploads custom emoji yet.
    await realm.engine.db.realm_emoji.bulkAdd([
      { id: 1, name: 'parrot', source_url: '/user_avatars/parrot.png', deactivated: false, author_id: IDS.olivia },
      { id: 2, name: 'old', source_url: '/user_avatars/old.png', deactivated: true, author_id: IDS.olivia },
    ]);
    await react('mia', 2, { emoji_name: 'parrot' });
    expect(await reactionsOn(2)).toMatchObject([{ user_id: IDS.mia, emoji_name: 'parrot', emoji_code: '1', reaction_type: 'realm_emoji' }]);
    expect(await reactionsOn(2)).toHaveLength(1);
    expect((await react('mark', 2, { emoji_name: 'old', emoji_code: '2', reaction_type: 'realm_emoji' })).body).toEqual(
      error('This custom emoji has been deactivated.'),
    );
    expect((await react('mark', 2, { emoji_name: 'parrot', emoji_code: '9', reaction_type: 'realm_emoji' })).body).toEqual(error('Invalid custom emoji.'));
    expect((await react('mark', 2, { emoji_name: 'old' })).body).toEqual(error("Emoji 'old' does not exist"));
  });

  it('gives a user reacting to channel history they never received a historical, read row', async () => {
    const { body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'design', topic: 'mock', content: 'look' });
    expect(await received('mia')).toEqual([
      [1, ['read']],
      [2, ['read']],
    ]);
    expect((await react('mia', body.id, { emoji_name: 'tada' })).body).toEqual({ result: 'success', msg: '' });
    expect(await received('mia')).toEqual([
      [1, ['read']],
      [2, ['read']],
      [body.id, ['read', 'historical']],
    ]);
  });

  it('tells only the holders about reactions in a private channel without shared history', async () => {
    const adam = queueFor(IDS.adam);
    const olivia = queueFor(IDS.olivia);
    await react('mark', 3, { emoji_name: 'tada' });
    expect(olivia.events).toHaveLength(1);
    expect(adam.events).toEqual([]);
  });

  it('answers "Invalid message(s)" for a message the caller cannot see', async () => {
    expect((await react('gail', 3, { emoji_name: 'tada' })).body).toEqual(error('Invalid message(s)'));
    expect(await reactionsOn(3)).toEqual([]);
  });
});

describe('DELETE /messages/{id}/reactions', () => {
  it('removes a reaction named by emoji name and tells everyone who can see the message', async () => {
    await react('mia', 2, { emoji_name: 'octopus' });
    const olivia = queueFor(IDS.olivia);
    const { status, body } = await unreact('mia', 2, { emoji_name: 'octopus' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOn(2)).toEqual([]);
    expect(olivia.events).toEqual([
      { id: 0, type: 'reaction', op: 'remove', user_id: IDS.mia, message_id: 2, emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user: MIA },
    ]);
  });

  it('removes a reaction named by code and type', async () => {
    await react('mia', 2, { emoji_name: 'zulip' });
    await unreact('mia', 2, { emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
    expect(await reactionsOn(2)).toEqual([]);
  });

  it("removes only the caller's own reaction", async () => {
    await react('mia', 2, { emoji_name: 'octopus' });
    const { body } = await unreact('mark', 2, { emoji_name: 'octopus' });
    expect(body).toEqual(error("Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST'));
    expect((await reactionsOn(2)).map((r) => [r.user_id, r.emoji_name])).toEqual([[IDS.mia, 'octopus']]);
  });

  it('needs an emoji name or code, and a valid name', async () => {
    expect((await unreact('mia', 2, {})).body).toEqual(error('At least one of the following arguments must be present: emoji_name, emoji_code'));
    expect((await unreact('mia', 2, { emoji_name: 'no_such_emoji' })).body).toEqual(error("Emoji 'no_such_emoji' does not exist"));
  });
});

describe('reactions in pages of GET /messages', () => {
  /** The reactions of each message in mark's newest page, by message id. */
  async function pageReactions(client = realm.as('mark')): Promise<Record<number, [number, string][]>> {
    const { status, body } = await client.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 });
    expect(status).toBe(200);
    const reacted = body.messages.filter((m: { reactions: unknown[] }) => m.reactions.length > 0);
    return Object.fromEntries(reacted.map((m: { id: number; reactions: { user_id: number; emoji_name: string }[] }) => [m.id, m.reactions.map((r) => [r.user_id, r.emoji_name])]));
  }

  it('show a reaction added after the same page was read, and not once it is removed', async () => {
    expect(await pageReactions()).toEqual({});
    await react('mia', 2, { emoji_name: 'octopus' });
    expect(await pageReactions()).toEqual({ 2: [[IDS.mia, 'octopus']] });
    await unreact('mia', 2, { emoji_name: 'octopus' });
    expect(await pageReactions()).toEqual({});
  });

  it('show the reactions stored before the database was opened', async () => {
    const indexedDB = new IDBFactory();
    const open = () => Engine.create({ db: new RealmDatabase({ name: 'reopened', indexedDB, IDBKeyRange }) });
    const first = await open();
    await first.loadScenario(TEST_SCENARIO);
    const as = (engine: Engine, name: TestUser) => {
      const user = TEST_SCENARIO.users.find((u) => u.email.startsWith(`${name}@`))!;
      return new TestClient(engine, user.email, user.api_key);
    };
    expect((await as(first, 'mia').post('/messages/2/reactions', { emoji_name: 'octopus' })).status).toBe(200);
    first.close();
    const reopened = await open();
    expect(await pageReactions(as(reopened, 'mark'))).toEqual({ 2: [[IDS.mia, 'octopus']] });
    reopened.close();
  });
});
