import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const success = { result: 'success', msg: '' };
const add = (alert_words: unknown, user: 'mark' | 'mia' = 'mia') => realm.as(user).post('/users/me/alert_words', { alert_words });
const send = async (content: string, user: 'mark' | 'mia' = 'mark'): Promise<number> =>
  (await realm.as(user).post('/messages', { type: 'stream', to: 'general', topic: 'deploys', content })).body.id;
const flagsOf = async (user: 'mark' | 'mia', id: number): Promise<string[]> =>
  (await realm.as(user).get(`/messages/${id}`)).body.message.flags;

describe('POST /users/me/alert_words', () => {
  it('adds the new words once each, ignoring case and blanks, answers the whole list and tells only the owner', async () => {
    await add(['deploy']);
    const mia = openQueue(realm.engine, IDS.mia);
    const mark = openQueue(realm.engine, IDS.mark);
    const { status, body } = await add([' Outage ', 'DEPLOY', 'outage', '  ', 'on call']);
    expect(status).toBe(200);
    expect(body).toEqual({ ...success, alert_words: ['deploy', 'Outage', 'on call'] });
    expect(mia.events).toEqual([{ id: 0, type: 'alert_words', alert_words: ['deploy', 'Outage', 'on call'] }]);
    expect(mark.events).toEqual([]);
  });

  it('announces the list even when nothing was added, as upstream', async () => {
    await add(['deploy']);
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await add(['Deploy'])).body).toEqual({ ...success, alert_words: ['deploy'] });
    expect(mia.events).toEqual([{ id: 0, type: 'alert_words', alert_words: ['deploy'] }]);
  });

  it('refuses a word over 100 characters, adding none of the list', async () => {
    await expectRefused(realm, () => add(['fine', 'x'.repeat(101)]), error('alert_words[1] is too long (limit: 100 characters)'));
  });

  it('refuses a value that is not a list of strings', async () => {
    await expectRefused(realm, () => add('deploy'), error('alert_words is not valid JSON'));
    await expectRefused(realm, () => add({ word: 'deploy' }), error('alert_words is not a list'));
    await expectRefused(realm, () => add([3]), error('alert_words[0] is not a string'));
    await expectRefused(realm, () => realm.as('mia').post('/users/me/alert_words'), {
      ...error("Missing 'alert_words' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'alert_words',
    });
  });
});

describe('DELETE /users/me/alert_words', () => {
  it('removes the words matching ignoring case, ignores unknown ones and announces the rest', async () => {
    await add(['deploy', 'Outage', 'on call']);
    const mia = openQueue(realm.engine, IDS.mia);
    const { status, body } = await realm.as('mia').delete('/users/me/alert_words', { alert_words: ['outage', 'never added'] });
    expect(status).toBe(200);
    expect(body).toEqual({ ...success, alert_words: ['deploy', 'on call'] });
    expect(mia.events).toEqual([{ id: 0, type: 'alert_words', alert_words: ['deploy', 'on call'] }]);
  });
});

describe('GET /users/me/alert_words and the alert_words register section', () => {
  it("list the caller's words in the order they were added", async () => {
    await add(['deploy', 'outage']);
    await add(['mine'], 'mark');
    expect((await realm.as('mia').get('/users/me/alert_words')).body).toEqual({ ...success, alert_words: ['deploy', 'outage'] });
    const registered = await realm.as('mia').post('/register', { fetch_event_types: ['alert_words'] });
    expect(registered.body.alert_words).toEqual(['deploy', 'outage']);
  });
});

describe('the has_alert_word flag', () => {
  it("marks a message for each recipient whose word occurs in it, but not for the sender's own words", async () => {
    await add(['deploy']);
    await add(['deploy'], 'mark');
    const mia = openQueue(realm.engine, IDS.mia);
    const id = await send('Time to DEPLOY.');
    expect(await flagsOf('mia', id)).toEqual(['has_alert_word']);
    expect(await flagsOf('mark', id)).toEqual([]);
    expect(mia.events).toEqual([expect.objectContaining({ type: 'message', flags: ['has_alert_word'] })]);
  });

  it.each([
    ['deploy', true],
    ['(deploy)', true],
    ['*deploy*', true],
    ['"deploy now', true],
    ['we deploy!', true],
    ['redeploy', false],
    ['deploys', false],
    ['deploy"', false],
    ['deploy-time', false],
  ])('follows upstream word boundaries: %s alerts: %s', async (content, alerts) => {
    await add(['deploy']);
    const id = await send(content);
    expect((await flagsOf('mia', id)).includes('has_alert_word')).toBe(alerts);
  });

  it('matches a phrase, ignoring case', async () => {
    await add(['On Call']);
    expect(await flagsOf('mia', await send('who is on call today?'))).toEqual(['has_alert_word']);
  });

  it('is set or cleared when an edit adds or removes the word, and the update event carries it', async () => {
    await add(['deploy']);
    const id = await send('nothing yet');
    const mia = openQueue(realm.engine, IDS.mia);
    await realm.as('mark').patch(`/messages/${id}`, { content: 'now deploy' });
    expect(await flagsOf('mia', id)).toEqual(['has_alert_word']);
    await realm.as('mark').patch(`/messages/${id}`, { content: 'never mind' });
    expect(await flagsOf('mia', id)).toEqual([]);
    expect(mia.events.map((event) => event.flags)).toEqual([['has_alert_word'], []]);
  });

  it('is what the is:alerted narrow finds', async () => {
    await add(['deploy']);
    const alerted = await send('deploy at noon');
    await send('lunch at noon');
    const later = await send('deploy done');
    const { body } = await realm.as('mia').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'alerted' }] });
    expect(body.messages.map((m: { id: number }) => m.id)).toEqual([alerted, later]);
    expect((await realm.as('mark').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'alerted' }] })).body.messages).toEqual([]);
  });
});
