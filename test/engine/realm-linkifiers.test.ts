import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const TICKET = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' };
const ISSUE = { pattern: 'GH-(?P<num>[0-9]+)', url_template: 'https://github.example/issues/{num}' };

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const rows = () => realm.engine.db.linkifiers.toArray();
const withTemplates = (userId: number) =>
  openQueue(realm.engine, userId, { capabilities: { ...NO_CAPABILITIES, linkifier_url_template: true } });
const add = (user: TestUser, params: Record<string, unknown>) => realm.as(user).post('/realm/filters', params);

async function seeded(): Promise<{ ticket: number; issue: number }> {
  const ticket = (await add('adam', TICKET)).body.id as number;
  const issue = (await add('adam', ISSUE)).body.id as number;
  return { ticket, issue };
}

describe('GET /realm/linkifiers', () => {
  it('lists the linkifiers in processing order to any user, guests included', async () => {
    const { ticket, issue } = await seeded();
    const { status, body } = await realm.as('gail').get('/realm/linkifiers');
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      linkifiers: [
        { id: ticket, ...TICKET },
        { id: issue, ...ISSUE },
      ],
    });
  });

  it('is empty in a realm without linkifiers', async () => {
    expect((await realm.as('mark').get('/realm/linkifiers')).body.linkifiers).toEqual([]);
  });
});

describe('POST /realm/filters', () => {
  it('adds a linkifier, answers its id, and sends the whole list to clients that read URL templates', async () => {
    const modern = withTemplates(IDS.mark);
    const legacy = openQueue(realm.engine, IDS.mark);
    const { status, body } = await add('adam', TICKET);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', id: 1 });
    expect(await rows()).toEqual([{ id: 1, ...TICKET, order: 0 }]);
    expect(modern.events).toEqual([{ id: 0, type: 'realm_linkifiers', realm_linkifiers: [{ id: 1, ...TICKET }] }]);
    expect(legacy.events).toEqual([]);
  });

  it('lets the owner add one too and orders new linkifiers last', async () => {
    await add('adam', TICKET);
    expect((await add('olivia', ISSUE)).body.id).toBe(2);
    expect((await rows()).map((r) => [r.id, r.order])).toEqual([
      [1, 0],
      [2, 1],
    ]);
  });

  it('strips white space around the pattern and the template', async () => {
    await add('adam', { pattern: `  ${TICKET.pattern} `, url_template: ` ${TICKET.url_template}\n` });
    expect(await rows()).toEqual([{ id: 1, ...TICKET, order: 0 }]);
  });

  it.each(['mona', 'mark', 'gail'] as const)('refuses %s, who is not an administrator, and changes nothing', async (user) => {
    const queue = withTemplates(IDS.mark);
    const { status, body } = await add(user, TICKET);
    expect(status).toBe(400);
    expect(body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    expect(await rows()).toEqual([]);
    expect(queue.events).toEqual([]);
  });

  it('requires both the pattern and the URL template', async () => {
    const { status, body } = await add('adam', { pattern: TICKET.pattern });
    expect(status).toBe(400);
    expect(body).toEqual({ ...error("Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'url_template' });
    expect((await add('adam', { url_template: TICKET.url_template })).body.var_name).toBe('pattern');
    expect(await rows()).toEqual([]);
  });

  it('refuses a pattern that is not a regular expression, with the errors by field', async () => {
    const queue = withTemplates(IDS.mark);
    const { status, body } = await add('adam', { pattern: '(?P<id>[0-9]+', url_template: TICKET.url_template });
    expect(status).toBe(400);
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.msg).toMatch(/^Bad regular expression: /);
    expect(body.errors).toEqual({ __all__: [body.msg] });
    expect(await rows()).toEqual([]);
    expect(queue.events).toEqual([]);
  });

  it('refuses patterns that cannot run in linear time', async () => {
    const { body } = await add('adam', { pattern: '(?P<id>a)\\1', url_template: TICKET.url_template });
    expect(body.msg).toMatch(/^Bad regular expression: /);
    expect(await rows()).toEqual([]);
  });

  it('refuses a URL template that is not RFC 6570', async () => {
    const { status, body } = await add('adam', { pattern: TICKET.pattern, url_template: 'https://x.example/{id' });
    expect(status).toBe(400);
    expect(body).toEqual({ ...error('Invalid URL template.'), errors: { url_template: ['Invalid URL template.'] } });
    expect(await rows()).toEqual([]);
  });

  it('refuses a template variable the pattern does not capture', async () => {
    const { body } = await add('adam', { pattern: TICKET.pattern, url_template: 'https://x.example/{id}/{org}' });
    const msg = "Group 'org' in URL template is not present in linkifier pattern.";
    expect(body).toEqual({ ...error(msg), errors: { __all__: [msg] } });
    expect(await rows()).toEqual([]);
  });

  it('refuses a named group the template does not use', async () => {
    const { body } = await add('adam', { pattern: '(?P<org>[a-z]+)#(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' });
    const msg = "Group 'org' in linkifier pattern is not present in URL template.";
    expect(body).toEqual({ ...error(msg), errors: { __all__: [msg] } });
    expect(await rows()).toEqual([]);
  });

  it('refuses blank fields, naming every field at fault', async () => {
    const { body } = await add('adam', { pattern: ' ', url_template: '' });
    expect(body).toEqual({
      ...error('This field cannot be blank.'),
      errors: { pattern: ['This field cannot be blank.'], url_template: ['This field cannot be blank.'] },
    });
    expect(await rows()).toEqual([]);
  });

  it('refuses a pattern the realm already has', async () => {
    await add('adam', TICKET);
    const { body } = await add('adam', { pattern: TICKET.pattern, url_template: 'https://other.example/{id}' });
    const msg = 'Realm filter with this Realm and Pattern already exists.';
    expect(body).toEqual({ ...error(msg), errors: { __all__: [msg] } });
    expect(await rows()).toHaveLength(1);
  });

  it('links the pattern in the next message sent', async () => {
    await add('adam', TICKET);
    const sent = await realm.as('mark').post('/messages', { type: 'stream', to: IDS.general, topic: 'bugs', content: 'fixed #42 today' });
    const message = await realm.engine.db.messages.get(sent.body.id);
    expect(message?.rendered_content).toContain('<a href="https://trac.example.com/ticket/42"');
  });
});

describe('PATCH /realm/filters/{filter_id}', () => {
  it('replaces the pattern and template and sends the new list', async () => {
    const { ticket } = await seeded();
    const queue = withTemplates(IDS.mia);
    const changed = { pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example/{id}' };
    const { status, body } = await realm.as('adam').patch(`/realm/filters/${ticket}`, changed);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await realm.engine.db.linkifiers.get(ticket)).toEqual({ id: ticket, ...changed, order: 0 });
    expect(queue.events).toEqual([
      { id: 0, type: 'realm_linkifiers', realm_linkifiers: [{ id: ticket, ...changed }, { id: 2, ...ISSUE }] },
    ]);
  });

  it('keeps its own pattern without calling it a duplicate', async () => {
    const { ticket } = await seeded();
    const { body } = await realm.as('adam').patch(`/realm/filters/${ticket}`, { ...TICKET, url_template: 'https://t.example/{id}' });
    expect(body.result).toBe('success');
  });

  it('refuses an unknown linkifier', async () => {
    const { status, body } = await realm.as('adam').patch('/realm/filters/99', TICKET);
    expect(status).toBe(400);
    expect(body).toEqual(error('Linkifier not found.'));
  });

  it("refuses another linkifier's pattern and invalid input, changing nothing", async () => {
    const { ticket } = await seeded();
    const before = await rows();
    const queue = withTemplates(IDS.mark);
    expect((await realm.as('adam').patch(`/realm/filters/${ticket}`, ISSUE)).body.msg).toBe(
      'Realm filter with this Realm and Pattern already exists.',
    );
    expect((await realm.as('adam').patch(`/realm/filters/${ticket}`, { ...TICKET, url_template: '{' })).body.msg).toBe(
      'Invalid URL template.',
    );
    expect(await rows()).toEqual(before);
    expect(queue.events).toEqual([]);
  });

  it('refuses a member', async () => {
    const { ticket } = await seeded();
    const { body } = await realm.as('mark').patch(`/realm/filters/${ticket}`, ISSUE);
    expect(body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await realm.engine.db.linkifiers.get(ticket))?.pattern).toBe(TICKET.pattern);
  });
});

describe('DELETE /realm/filters/{filter_id}', () => {
  it('removes the linkifier and sends the remaining list', async () => {
    const { ticket, issue } = await seeded();
    const queue = withTemplates(IDS.olivia);
    const { status, body } = await realm.as('adam').delete(`/realm/filters/${ticket}`);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect((await rows()).map((r) => r.id)).toEqual([issue]);
    expect(queue.events).toEqual([{ id: 0, type: 'realm_linkifiers', realm_linkifiers: [{ id: issue, ...ISSUE }] }]);
  });

  it('refuses an unknown linkifier and a non-administrator', async () => {
    const { ticket } = await seeded();
    expect((await realm.as('adam').delete('/realm/filters/77')).body).toEqual(error('Linkifier not found.'));
    expect((await realm.as('mona').delete(`/realm/filters/${ticket}`)).body).toEqual(
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    );
    expect(await rows()).toHaveLength(2);
  });
});

describe('PATCH /realm/linkifiers', () => {
  it('reorders the linkifiers and sends them in the new order', async () => {
    const { ticket, issue } = await seeded();
    const queue = withTemplates(IDS.mark);
    const { status, body } = await realm.as('adam').patch('/realm/linkifiers', { ordered_linkifier_ids: [issue, ticket] });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect((await realm.as('mark').get('/realm/linkifiers')).body.linkifiers.map((l: { id: number }) => l.id)).toEqual([issue, ticket]);
    expect(queue.events).toEqual([
      { id: 0, type: 'realm_linkifiers', realm_linkifiers: [{ id: issue, ...ISSUE }, { id: ticket, ...TICKET }] },
    ]);
  });

  it('refuses a list with duplicates or one that is not every linkifier, changing nothing', async () => {
    const { ticket, issue } = await seeded();
    const before = await rows();
    const reorder = (ids: number[]) => realm.as('adam').patch('/realm/linkifiers', { ordered_linkifier_ids: ids });
    expect((await reorder([ticket, ticket, issue])).body).toEqual(error('The ordered list must not contain duplicated linkifiers'));
    expect((await reorder([issue])).body).toEqual(error('The ordered list must enumerate all existing linkifiers exactly once'));
    expect((await reorder([issue, ticket, 99])).body).toEqual(
      error('The ordered list must enumerate all existing linkifiers exactly once'),
    );
    expect(await rows()).toEqual(before);
  });

  it('accepts an empty list when there is nothing to order, without an event', async () => {
    const queue = withTemplates(IDS.mark);
    expect((await realm.as('adam').patch('/realm/linkifiers', { ordered_linkifier_ids: [] })).body.result).toBe('success');
    expect(queue.events).toEqual([]);
  });

  it('refuses a non-administrator', async () => {
    const { ticket, issue } = await seeded();
    const { body } = await realm.as('mark').patch('/realm/linkifiers', { ordered_linkifier_ids: [issue, ticket] });
    expect(body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await rows()).map((r) => r.order)).toEqual([0, 1]);
  });
});

describe('the realm_linkifiers register section', () => {
  it('lists the linkifiers for clients that read URL templates and is empty for the others', async () => {
    const { ticket } = await seeded();
    const modern = await realm.as('mark').post('/register', {
      fetch_event_types: ['realm_linkifiers', 'realm_filters'],
      client_capabilities: { linkifier_url_template: true },
    });
    expect(modern.body.realm_linkifiers).toEqual([
      { id: ticket, ...TICKET },
      { id: 2, ...ISSUE },
    ]);
    expect(modern.body.realm_filters).toEqual([]);
    const legacy = await realm.as('mark').post('/register', { fetch_event_types: ['realm_linkifiers'] });
    expect(legacy.body.realm_linkifiers).toEqual([]);
  });
});
