import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

/**
 * Upstream counts a text's length in characters (Python's `len`: code points), so an emoji is
 * one character, where JavaScript's `length` counts two UTF-16 units.
 */
let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const EMOJI = '😀';
const tooLong = (name: string, limit: number) => `${name} is too long (limit: ${limit} characters)`;

interface LimitedText {
  field: string;
  limit: number;
  /** Sets the text through the API; the answer's status and body. */
  set: (text: string) => Promise<{ status: number; body: Record<string, unknown> }>;
  /** The text as the API shows it afterwards. */
  read: () => Promise<unknown>;
  refusal: string;
}

const LIMITED_TEXTS: LimitedText[] = [
  {
    field: 'a status text',
    limit: 60,
    set: (text) => realm.as('mia').post('/users/me/status', { status_text: text }),
    read: async () => (await realm.as('mark').get(`/users/${IDS.mia}/status`)).body.status.status_text,
    refusal: tooLong('status_text', 60),
  },
  {
    field: 'a full name',
    limit: 100,
    set: (text) => realm.as('mia').patch('/settings', { full_name: text }),
    read: async () => (await realm.as('mia').get('/users/me')).body.full_name,
    refusal: 'Name too long!',
  },
  {
    field: 'a user group name',
    limit: 100,
    set: (text) => realm.as('mark').post('/user_groups/create', { name: text, description: '', members: [IDS.mark] }),
    read: async () => {
      const groups: { name: string; is_system_group: boolean }[] = (await realm.as('mark').get('/user_groups')).body.user_groups;
      return groups.find((group) => !group.is_system_group)?.name;
    },
    refusal: 'User group name cannot exceed 100 characters.',
  },
  {
    field: 'a channel folder name',
    limit: 60,
    set: (text) => realm.as('adam').post('/channel_folders/create', { name: text, description: '' }),
    read: async () => (await realm.as('adam').get('/channel_folders')).body.channel_folders.at(-1).name,
    refusal: tooLong('name', 60),
  },
  {
    field: "the organization's name",
    limit: 40,
    set: (text) => realm.as('olivia').patch('/realm', { name: text }),
    read: async () => (await realm.as('mark').get('/server_settings')).body.realm_name,
    refusal: tooLong('name', 40),
  },
  {
    field: 'a channel description',
    limit: 1024,
    set: (text) => realm.as('olivia').patch(`/streams/${IDS.general}`, { description: text }),
    read: async () => (await realm.as('mark').get(`/streams/${IDS.general}`)).body.stream.description,
    refusal: tooLong('description', 1024),
  },
  {
    field: 'a saved snippet title',
    limit: 60,
    set: (text) => realm.as('mark').post('/saved_snippets', { title: text, content: 'Omw' }),
    read: async () => (await realm.as('mark').get('/saved_snippets')).body.saved_snippets[0]?.title,
    refusal: tooLong('title', 60),
  },
  {
    field: 'an alert word',
    limit: 100,
    set: (text) => realm.as('mark').post('/users/me/alert_words', { alert_words: [text] }),
    read: async () => (await realm.as('mark').get('/users/me/alert_words')).body.alert_words[0],
    refusal: tooLong('alert_words[0]', 100),
  },
];

describe('text limits count characters, as upstream does', () => {
  for (const text of LIMITED_TEXTS) {
    it(`takes ${text.field} of ${text.limit} emoji whole, and refuses one more with nothing changed`, async () => {
      await expectRefused(realm, () => text.set(EMOJI.repeat(text.limit + 1)), { result: 'error', msg: text.refusal, code: 'BAD_REQUEST' });
      const answer = await text.set(EMOJI.repeat(text.limit));
      expect(answer.status).toBe(200);
      expect(await text.read()).toBe(EMOJI.repeat(text.limit));
    });
  }
});
