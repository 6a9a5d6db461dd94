import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
  await realm.engine.db.realm_emoji.bulkAdd([
    { id: 2, name: 'party_parrot', source_url: '/user_avatars/1/emoji/images/2.gif', deactivated: true, author_id: null },
    { id: 1, name: 'green_tick', source_url: '/user_avatars/1/emoji/images/1.png', deactivated: false, author_id: IDS.adam },
  ]);
});
afterEach(() => realm.engine.close());

const EMOJI = {
  '1': { id: '1', name: 'green_tick', source_url: '/user_avatars/1/emoji/images/1.png', still_url: null, deactivated: false, author_id: IDS.adam },
  '2': { id: '2', name: 'party_parrot', source_url: '/user_avatars/1/emoji/images/2.gif', still_url: null, deactivated: true, author_id: null },
};

describe('GET /realm/emoji', () => {
  it('lists every custom emoji by id, deactivated ones included, to any user', async () => {
    const { status, body } = await realm.as('gail').get('/realm/emoji');
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', emoji: EMOJI });
  });

  it('needs authentication', async () => {
    const { status, body } = await realm.anonymous().get('/realm/emoji');
    expect(status).toBe(401);
    expect(body.code).toBe('UNAUTHORIZED');
  });

  it('matches the realm_emoji register section', async () => {
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['realm_emoji'] });
    expect(body.realm_emoji).toEqual(EMOJI);
  });
});

describe('the server emoji data (register server_emoji_data_url)', () => {
  it('register names the file, and it maps every Unicode emoji code to its names, canonical first, to anyone', async () => {
    const registered = await realm.as('mark').post('/register', { fetch_event_types: ['realm'] });
    expect(registered.body.server_emoji_data_url).toBe('/api/v1/server_emoji_data');

    const { status, body } = await realm.anonymous().get('/server_emoji_data');
    expect(status).toBe(200);
    const codeToNames = body.code_to_names as Record<string, string[]>;
    expect(codeToNames['2764'][0]).toBe('heart');
    expect(codeToNames['1f44d']).toContain('+1');
    expect(codeToNames['1f6e0']).toContain('working_on_it');
    expect(Object.keys(codeToNames).length).toBeGreaterThan(1800);
    // Skin-tone modifiers are not emoji of their own.
    expect(codeToNames['1f3fb']).toBeUndefined();
  });

  it('sorts every code it names into upstream’s picker categories, each in emoji-datasource’s order', async () => {
    const { body } = await realm.anonymous().get('/server_emoji_data');
    const catalog = body.emoji_catalog as Record<string, string[]>;
    expect(Object.keys(catalog).sort()).toEqual(
      ['Activities', 'Animals & Nature', 'Flags', 'Food & Drink', 'Objects', 'People & Body', 'Smileys & Emotion', 'Symbols', 'Travel & Places'],
    );
    expect(catalog['Smileys & Emotion'].slice(0, 3)).toEqual(['1f600', '1f603', '1f604']);
    expect(catalog['Symbols']).toContain('2122');
    // Each code once, and exactly the codes code_to_names names.
    const codes = Object.values(catalog).flat();
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.sort()).toEqual(Object.keys(body.code_to_names as Record<string, string[]>).sort());
  });

  it('every name it lists is one a reaction accepts', async () => {
    const { body } = await realm.anonymous().get('/server_emoji_data');
    const [code, names] = Object.entries(body.code_to_names as Record<string, string[]>)[100];
    const sent = await realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'emoji', content: 'react to me' });
    const reacted = await realm.as('mark').post(`/messages/${sent.body.id}/reactions`, { emoji_name: names.at(-1) });
    expect(reacted.status).toBe(200);
    const message = await realm.as('mark').get(`/messages/${sent.body.id}`);
    expect(message.body.message.reactions[0]).toMatchObject({ emoji_code: code, reaction_type: 'unicode_emoji' });
  });
});
