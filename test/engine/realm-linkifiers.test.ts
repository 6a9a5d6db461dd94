import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const TICKET = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' };
const ISSUE = { pattern: 'GH-(?P<num>[0-9]+)', url_template: 'https://github.example/issues/{num}' };

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
/** The linkifiers in processing order, as GET /realm/linkifiers lists them. */
const rows = async () => (await realm.as('mark').get('/realm/linkifiers')).body.linkifiers as { id: number; pattern: string; url_template: string }[];
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
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
    expect(await rows()).toEqual([{ id: 1, ...TICKET }]);
    expect(modern.events).toEqual([{ id: 0, type: 'realm_linkifiers', realm_linkifiers: [{ id: 1, ...TICKET }] }]);
    expect(legacy.events).toEqual([]);
  });

  it('lets the owner add one too and orders new linkifiers last', async () => {
    await add('adam', TICKET);
    expect((await add('olivia', ISSUE)).body.id).toBe(2);
    expect(await rows()).toEqual([
      { id: 1, ...TICKET },
      { id: 2, ...ISSUE },
    ]);
  });

  it('strips white space around the pattern and the template', async () => {
    await add('adam', { pattern: `  ${TICKET.pattern} `, url_template: ` ${TICKET.url_template}\n` });
    expect(await rows()).toEqual([{ id: 1, ...TICKET }]);
  });

  it.each(['mona', 'mark', 'gail'] as const)('refuses %s, who is not an administrator, and changes nothing', async (user) => {
    await refused(() => add(user, TICKET), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });

  it('requires both the pattern and the URL template', async () => {
    await refused(() => add('adam', { pattern: TICKET.pattern }), {
      ...error("Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'url_template',
    });
    await refused(() => add('adam', { url_template: TICKET.url_template }), {
      ...error("Missing 'pattern' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'pattern',
    });
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
    await refused(() => add('adam', { pattern: TICKET.pattern, url_template: 'https://x.example/{id' }), {
      ...error('Invalid URL template.'),
      errors: { url_template: ['Invalid URL template.'] },
    });
  });

  it('refuses a template variable the pattern does not capture', async () => {
    const msg = "Group 'org' in URL template is not present in linkifier pattern.";
    await refused(() => add('adam', { pattern: TICKET.pattern, url_template: 'https://x.example/{id}/{org}' }), { ...error(msg), errors: { __all__: [msg] } });
  });

  it('refuses a named group the template does not use', async () => {
    const msg = "Group 'org' in linkifier pattern is not present in URL template.";
    await refused(() => add('adam', { pattern: '(?P<org>[a-z]+)#(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' }), {
      ...error(msg),
      errors: { __all__: [msg] },
    });
  });

  it('refuses blank fields, naming every field at fault', async () => {
    await refused(() => add('adam', { pattern: ' ', url_template: '' }), {
      ...error('This field cannot be blank.'),
      errors: { pattern: ['This field cannot be blank.'], url_template: ['This field cannot be blank.'] },
    });
  });

  it('refuses a pattern the realm already has', async () => {
    await add('adam', TICKET);
    const msg = 'Realm filter with this Realm and Pattern already exists.';
    await refused(() => add('adam', { pattern: TICKET.pattern, url_template: 'https://other.example/{id}' }), { ...error(msg), errors: { __all__: [msg] } });
  });

  it('links the pattern in the next message sent', async () => {
    await add('adam', TICKET);
    const sent = await realm.as('mark').post('/messages', { type: 'stream', to: IDS.general, topic: 'bugs', content: 'fixed #42 today' });
    const { message } = (await realm.as('mark').get(`/messages/${sent.body.id}`)).body;
    expect(message.content).toContain('<a href="https://trac.example.com/ticket/42"');
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
    expect(await rows()).toEqual([{ id: ticket, ...changed }, { id: 2, ...ISSUE }]);
    expect(queue.events).toEqual([
      { id: 0, type: 'realm_linkifiers', realm_linkifiers: [{ id: ticket, ...changed }, { id: 2, ...ISSUE }] },
    ]);
  });

  it('keeps its own pattern without calling it a duplicate', async () => {
    const { ticket } = await seeded();
    const { body } = await realm.as('adam').patch(`/realm/filters/${ticket}`, { ...TICKET, url_template: 'https://t.example/{id}' });
    expect(body).toEqual({ result: 'success', msg: '' });
    expect((await rows())[0]).toEqual({ id: ticket, ...TICKET, url_template: 'https://t.example/{id}' });
  });

  it('refuses an unknown linkifier', async () => {
    await refused(() => realm.as('adam').patch('/realm/filters/99', TICKET), error('Linkifier not found.'));
  });

  it("refuses another linkifier's pattern and invalid input, changing nothing", async () => {
    const { ticket } = await seeded();
    const duplicate = 'Realm filter with this Realm and Pattern already exists.';
    await refused(() => realm.as('adam').patch(`/realm/filters/${ticket}`, ISSUE), { ...error(duplicate), errors: { __all__: [duplicate] } });
    await refused(() => realm.as('adam').patch(`/realm/filters/${ticket}`, { ...TICKET, url_template: '{' }), {
      ...error('Invalid URL template.'),
      errors: { url_template: ['Invalid URL template.'] },
    });
  });

  it('refuses a member', async () => {
    const { ticket } = await seeded();
    await refused(() => realm.as('mark').patch(`/realm/filters/${ticket}`, ISSUE), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });
});

describe('DELETE /realm/filters/{filter_id}', () => {
  it('removes the linkifier and sends the remaining list', async () => {
    const { ticket, issue } = await seeded();
    const queue = withTemplates(IDS.olivia);
    const { status, body } = await realm.as('adam').delete(`/realm/filters/${ticket}`);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await rows()).toEqual([{ id: issue, ...ISSUE }]);
    expect(queue.events).toEqual([{ id: 0, type: 'realm_linkifiers', realm_linkifiers: [{ id: issue, ...ISSUE }] }]);
  });

  it('refuses an unknown linkifier and a non-administrator', async () => {
    const { ticket } = await seeded();
    await refused(() => realm.as('adam').delete('/realm/filters/77'), error('Linkifier not found.'));
    await refused(() => realm.as('mona').delete(`/realm/filters/${ticket}`), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
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
    const reorder = (ids: number[]) => () => realm.as('adam').patch('/realm/linkifiers', { ordered_linkifier_ids: ids });
    await refused(reorder([ticket, ticket, issue]), error('The ordered list must not contain duplicated linkifiers'));
    await refused(reorder([issue]), error('The ordered list must enumerate all existing linkifiers exactly once'));
    await refused(reorder([issue, ticket, 99]), error('The ordered list must enumerate all existing linkifiers exactly once'));
  });

  it('accepts an empty list when there is nothing to order, without an event', async () => {
    const queue = withTemplates(IDS.mark);
    expect((await realm.as('adam').patch('/realm/linkifiers', { ordered_linkifier_ids: [] })).body).toEqual({ result: 'success', msg: '' });
    expect(queue.events).toEqual([]);
  });

  it('refuses a non-administrator', async () => {
    const { ticket, issue } = await seeded();
    await refused(
      () => realm.as('mark').patch('/realm/linkifiers', { ordered_linkifier_ids: [issue, ticket] }),
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    );
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
