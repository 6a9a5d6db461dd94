import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
/** The user's snippets as GET /saved_snippets lists them. */
const snippets = async (user: TestUser = 'mark') => (await realm.as(user).get('/saved_snippets')).body.saved_snippets;
const create = (title: string, content: string) => realm.as('mark').post('/saved_snippets', { title, content });

describe('POST /saved_snippets', () => {
  it("creates a snippet, answers its id and tells only the owner's queues", async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);
    const { status, body } = await create(' Greeting ', 'Welcome to **the team**\n');
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', saved_snippet_id: 1 });
    expect(await snippets()).toEqual([{ id: 1, title: 'Greeting', content: 'Welcome to **the team**', date_created: NOW }]);
    expect(mark.events).toEqual([
      { id: 0, type: 'saved_snippets', op: 'add', saved_snippet: { id: 1, title: 'Greeting', content: 'Welcome to **the team**', date_created: NOW } },
    ]);
    expect(mia.events).toEqual([]);
  });

  it('refuses an empty title or content and a title over 60 characters', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await create('  ', 'x')).body).toEqual(error('Title cannot be empty.'));
    expect((await create('Title', ' \n')).body).toEqual(error('Content cannot be empty.'));
    const long = await create('t'.repeat(61), 'x');
    expect(long.status).toBe(400);
    expect(long.body).toEqual(error('title is too long (limit: 60 characters)'));
    expect((await create('Title', 'c'.repeat(10001))).body).toEqual(error('content is too long (limit: 10000 characters)'));
    expect(await snippets()).toEqual([]);
    expect(mark.events).toEqual([]);
  });

  it('requires both fields', async () => {
    const { body } = await realm.as('mark').post('/saved_snippets', { title: 'Only a title' });
    expect(body).toEqual({ ...error("Missing 'content' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'content' });
  });
});

describe('GET /saved_snippets', () => {
  it("lists the caller's snippets, oldest first", async () => {
    await create('One', 'first');
    await realm.as('mia').post('/saved_snippets', { title: 'Mia', content: 'hers' });
    await create('Two', 'second');
    const { status, body } = await realm.as('mark').get('/saved_snippets');
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      saved_snippets: [
        { id: 1, title: 'One', content: 'first', date_created: NOW },
        { id: 3, title: 'Two', content: 'second', date_created: NOW },
      ],
    });
  });
});

describe('PATCH /saved_snippets/{saved_snippet_id}', () => {
  it('changes the given fields and sends the whole snippet', async () => {
    await create('One', 'first');
    const mark = openQueue(realm.engine, IDS.mark);
    const { status, body } = await realm.as('mark').patch('/saved_snippets/1', { content: ' updated ' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await snippets()).toEqual([{ id: 1, title: 'One', content: 'updated', date_created: NOW }]);
    await realm.as('mark').patch('/saved_snippets/1', { title: 'Uno' });
    expect(mark.events).toEqual([
      { id: 0, type: 'saved_snippets', op: 'update', saved_snippet: { id: 1, title: 'One', content: 'updated', date_created: NOW } },
      { id: 1, type: 'saved_snippets', op: 'update', saved_snippet: { id: 1, title: 'Uno', content: 'updated', date_created: NOW } },
    ]);
  });

  it('changes nothing and sends nothing when neither field is given', async () => {
    await create('One', 'first');
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('mark').patch('/saved_snippets/1', {})).body).toEqual({ result: 'success', msg: '' });
    expect(mark.events).toEqual([]);
  });

  it("refuses an unknown snippet, or someone else's, with BAD_REQUEST and status 404", async () => {
    await realm.as('mia').post('/saved_snippets', { title: 'Mia', content: 'hers' });
    const mark = openQueue(realm.engine, IDS.mark);
    for (const id of [1, 42]) {
      const { status, body } = await realm.as('mark').patch(`/saved_snippets/${id}`, { title: 'Mine now' });
      expect(status).toBe(404);
      expect(body).toEqual(error('Saved snippet does not exist.'));
    }
    expect((await snippets('mia'))[0].title).toBe('Mia');
    expect(mark.events).toEqual([]);
  });

  it('refuses an empty title, changing nothing', async () => {
    await create('One', 'first');
    expect((await realm.as('mark').patch('/saved_snippets/1', { title: ' ', content: 'new' })).body).toEqual(error('Title cannot be empty.'));
    expect((await snippets())[0]).toMatchObject({ title: 'One', content: 'first' });
  });

  it('refuses a snippet id that is not a number', async () => {
    expect((await realm.as('mark').patch('/saved_snippets/abc', { title: 'x' })).body).toEqual(error('Invalid saved_snippet_id'));
  });
});

describe('DELETE /saved_snippets/{saved_snippet_id}', () => {
  it('deletes the snippet and tells the owner', async () => {
    await create('One', 'first');
    const mark = openQueue(realm.engine, IDS.mark);
    const { status, body } = await realm.as('mark').delete('/saved_snippets/1');
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await snippets()).toEqual([]);
    expect(mark.events).toEqual([{ id: 0, type: 'saved_snippets', op: 'remove', saved_snippet_id: 1 }]);
  });

  it("refuses an unknown snippet or someone else's with 404", async () => {
    await realm.as('mia').post('/saved_snippets', { title: 'Mia', content: 'hers' });
    const { status, body } = await realm.as('mark').delete('/saved_snippets/1');
    expect(status).toBe(404);
    expect(body).toEqual(error('Saved snippet does not exist.'));
    expect(await snippets('mia')).toHaveLength(1);
  });
});

describe('the saved_snippets register section', () => {
  it("carries the caller's snippets", async () => {
    await create('One', 'first');
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['saved_snippets'] });
    expect(body.saved_snippets).toEqual([{ id: 1, title: 'One', content: 'first', date_created: NOW }]);
    expect((await realm.as('mia').post('/register', { fetch_event_types: ['saved_snippets'] })).body.saved_snippets).toEqual([]);
  });
});
