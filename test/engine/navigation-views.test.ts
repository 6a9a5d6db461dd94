import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
/** The user's views as GET /navigation_views lists them. */
const viewsOf = async (user: TestUser) => (await realm.as(user).get('/navigation_views')).body.navigation_views;
const at = (fragment: string) => `/navigation_views/${encodeURIComponent(fragment)}`;

const ALERTS = { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' };

describe('POST /navigation_views', () => {
  it('adds a custom view and tells only its owner', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);
    const { status, body } = await realm.as('mark').post('/navigation_views', ALERTS);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await viewsOf('mark')).toEqual([{ ...ALERTS }]);
    expect(mark.events).toEqual([{ id: 0, type: 'navigation_view', op: 'add', navigation_view: ALERTS }]);
    expect(mia.events).toEqual([]);
  });

  it('stores settings for a built-in view with a null name', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    await realm.as('mark').post('/navigation_views', { fragment: 'inbox', is_pinned: false });
    expect(await viewsOf('mark')).toEqual([{ fragment: 'inbox', is_pinned: false, name: null }]);
    expect(mark.events[0]).toEqual({ id: 0, type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: false, name: null } });
  });

  it('strips white space around the fragment and the name', async () => {
    await realm.as('mark').post('/navigation_views', { fragment: ' narrow/is/alerted ', is_pinned: true, name: ' Alert words ' });
    expect(await viewsOf('mark')).toEqual([{ ...ALERTS }]);
  });

  it('refuses a blank fragment and a blank name', async () => {
    const blankFragment = await realm.as('mark').post('/navigation_views', { fragment: '  ', is_pinned: true, name: 'x' });
    expect(blankFragment.status).toBe(400);
    expect(blankFragment.body).toEqual(error('fragment cannot be blank'));
    const blankName = await realm.as('mark').post('/navigation_views', { ...ALERTS, name: ' ' });
    expect(blankName.body).toEqual(error('name cannot be blank'));
    expect(await viewsOf('mark')).toEqual([]);
  });

  it('requires is_pinned as a boolean', async () => {
    const missing = await realm.as('mark').post('/navigation_views', { fragment: 'inbox' });
    expect(missing.body).toEqual({ ...error("Missing 'is_pinned' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'is_pinned' });
    const wrong = await realm.as('mark').post('/navigation_views', { fragment: 'inbox', is_pinned: 'yes' });
    expect(wrong.body).toEqual(error('is_pinned is not valid JSON'));
    expect(await viewsOf('mark')).toEqual([]);
  });

  it('refuses a name for a built-in view and a custom view without one', async () => {
    const named = await realm.as('mark').post('/navigation_views', { fragment: 'recent', is_pinned: true, name: 'Mine' });
    expect(named.body).toEqual(error('Built-in views cannot have a custom name.'));
    const unnamed = await realm.as('mark').post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true });
    expect(unnamed.body).toEqual(error('Custom views must have a valid name.'));
    expect(await viewsOf('mark')).toEqual([]);
  });

  it('refuses a second view with the same fragment or the same name, sending nothing', async () => {
    await realm.as('mark').post('/navigation_views', ALERTS);
    const mark = openQueue(realm.engine, IDS.mark);
    const sameFragment = await realm.as('mark').post('/navigation_views', { ...ALERTS, name: 'Other' });
    expect(sameFragment.body).toEqual(error('Navigation view already exists.'));
    const sameName = await realm.as('mark').post('/navigation_views', { ...ALERTS, fragment: 'narrow/is/dm' });
    expect(sameName.body).toEqual(error('Navigation view already exists.'));
    expect(await viewsOf('mark')).toEqual([{ ...ALERTS }]);
    expect(mark.events).toEqual([]);
  });

  it("lets another user add the same fragment to their own views", async () => {
    await realm.as('mark').post('/navigation_views', ALERTS);
    expect((await realm.as('mia').post('/navigation_views', ALERTS)).body).toEqual({ result: 'success', msg: '' });
    expect(await viewsOf('mia')).toEqual([ALERTS]);
    expect(await viewsOf('mark')).toEqual([ALERTS]);
  });
});

describe('GET /navigation_views', () => {
  it("lists only the caller's views", async () => {
    await realm.as('mark').post('/navigation_views', ALERTS);
    await realm.as('mark').post('/navigation_views', { fragment: 'inbox', is_pinned: false });
    await realm.as('mia').post('/navigation_views', { fragment: 'feed', is_pinned: true });
    const { status, body } = await realm.as('mark').get('/navigation_views');
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      navigation_views: [
        { fragment: 'inbox', is_pinned: false, name: null },
        ALERTS,
      ],
    });
  });
});

describe('PATCH /navigation_views/{fragment}', () => {
  it('changes what is given and sends just those fields', async () => {
    await realm.as('mark').post('/navigation_views', ALERTS);
    const mark = openQueue(realm.engine, IDS.mark);
    const { status, body } = await realm.as('mark').patch(at(ALERTS.fragment), { is_pinned: false });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await viewsOf('mark')).toEqual([{ ...ALERTS, is_pinned: false }]);
    await realm.as('mark').patch(at(ALERTS.fragment), { name: 'Alerts' });
    expect(mark.events).toEqual([
      { id: 0, type: 'navigation_view', op: 'update', fragment: ALERTS.fragment, data: { is_pinned: false } },
      { id: 1, type: 'navigation_view', op: 'update', fragment: ALERTS.fragment, data: { name: 'Alerts' } },
    ]);
  });

  it('finds the view by a fragment whose slashes are not encoded, as upstream\'s clients send it', async () => {
    await realm.as('mark').post('/navigation_views', ALERTS);
    expect((await realm.as('mark').patch(`/navigation_views/${ALERTS.fragment}`, { is_pinned: false })).body).toEqual({ result: 'success', msg: '' });
    expect(await viewsOf('mark')).toEqual([{ ...ALERTS, is_pinned: false }]);
    expect((await realm.as('mark').delete(`/navigation_views/${ALERTS.fragment}`)).body).toEqual({ result: 'success', msg: '' });
    expect(await viewsOf('mark')).toEqual([]);
  });

  it('refuses an unknown view with 404', async () => {
    const { status, body } = await realm.as('mark').patch(at('narrow/is/nothing'), { is_pinned: true });
    expect(status).toBe(404);
    expect(body).toEqual(error('Navigation view does not exist.'));
  });

  it("does not reach another user's view", async () => {
    await realm.as('mia').post('/navigation_views', ALERTS);
    expect((await realm.as('mark').patch(at(ALERTS.fragment), { is_pinned: false })).status).toBe(404);
    expect(await viewsOf('mia')).toEqual([{ ...ALERTS }]);
  });

  it('refuses a name for a built-in view and a name already in use, changing nothing', async () => {
    await realm.as('mark').post('/navigation_views', ALERTS);
    await realm.as('mark').post('/navigation_views', { fragment: 'inbox', is_pinned: true });
    await realm.as('mark').post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true, name: 'DMs' });
    const before = await viewsOf('mark');
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('mark').patch(at('inbox'), { name: 'Box' })).body).toEqual(error('Built-in views cannot have a custom name.'));
    expect((await realm.as('mark').patch(at(ALERTS.fragment), { name: 'DMs' })).body).toEqual(error('Navigation view already exists.'));
    expect((await realm.as('mark').patch(at(ALERTS.fragment), { name: ' ' })).body).toEqual(error('name cannot be blank'));
    expect(await viewsOf('mark')).toEqual(before);
    expect(mark.events).toEqual([]);
  });
});

describe('DELETE /navigation_views/{fragment}', () => {
  it('removes the view and tells its owner', async () => {
    await realm.as('mark').post('/navigation_views', ALERTS);
    const mark = openQueue(realm.engine, IDS.mark);
    const { status, body } = await realm.as('mark').delete(at(ALERTS.fragment));
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await viewsOf('mark')).toEqual([]);
    expect(mark.events).toEqual([{ id: 0, type: 'navigation_view', op: 'remove', fragment: ALERTS.fragment }]);
  });

  it('refuses an unknown view with 404 and sends nothing', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const { status, body } = await realm.as('mark').delete(at('inbox'));
    expect(status).toBe(404);
    expect(body).toEqual(error('Navigation view does not exist.'));
    expect(mark.events).toEqual([]);
  });
});

describe('the navigation_views register section', () => {
  it("carries the caller's views", async () => {
    await realm.as('mark').post('/navigation_views', ALERTS);
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['navigation_views'] });
    expect(body.navigation_views).toEqual([ALERTS]);
    const other = await realm.as('mia').post('/register', { fetch_event_types: ['navigation_views'] });
    expect(other.body.navigation_views).toEqual([]);
  });
});
