import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
/** The scenario's one folder ("Work", id 1, holding #general). */
const WORK = 1;

const create = (user: TestUser, params: Record<string, unknown>) => realm.as(user).post('/channel_folders/create', params);
const patchFolder = (user: TestUser, id: number, params: Record<string, unknown>) => realm.as(user).patch(`/channel_folders/${id}`, params);
const reorder = (user: TestUser, order: unknown) => realm.as(user).patch('/channel_folders', { order });
const list = async (params: Record<string, unknown> = {}) => (await realm.as('mia').get('/channel_folders', params)).body.channel_folders;
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });


describe('POST /channel_folders/create', () => {
  it('creates a folder last in the order and tells every user', async () => {
    const gail = openQueue(realm.engine, IDS.gail);
    const { status, body } = await create('adam', { name: 'Fun', description: 'Off *topic*' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', channel_folder_id: 2 });
    const folder = {
      id: 2,
      name: 'Fun',
      description: 'Off *topic*',
      rendered_description: '<p>Off <em>topic</em></p>',
      order: 2,
      date_created: NOW,
      creator_id: IDS.adam,
      is_archived: false,
    };
    expect(gail.events).toEqual([{ id: 0, type: 'channel_folder', op: 'add', channel_folder: folder }]);
    expect((await list()).at(-1)).toEqual(folder);
  });

  it('accepts an empty description, which must still be sent', async () => {
    expect((await create('olivia', { name: 'Fun', description: '' })).status).toBe(200);
    await expectRefused(realm, () => create('olivia', { name: 'More' }), {
      ...error("Missing 'description' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'description',
    });
  });

  it('refuses non-administrators with UNAUTHORIZED_PRINCIPAL', async () => {
    for (const user of ['mona', 'mark', 'gail'] as const) {
      await expectRefused(realm, () => create(user, { name: 'Fun', description: '' }), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    }
  });

  it('refuses blank, taken, unprintable and over-long names and descriptions', async () => {
    await expectRefused(realm, () => create('adam', { name: '  ', description: '' }), error("Channel folder name can't be empty."));
    await expectRefused(realm, () => create('adam', { name: 'work', description: '' }), error('Channel folder name already in use'));
    await expectRefused(realm, () => create('adam', { name: 'a\u0000b', description: '' }), error('Invalid character in channel folder name, at position 2.'));
    await expectRefused(realm, () => create('adam', { name: 'x'.repeat(61), description: '' }), error('name is too long (limit: 60 characters)'));
    await expectRefused(realm, () => create('adam', { name: 'Fun', description: 'x'.repeat(1025) }), error('description is too long (limit: 1024 characters)'));
  });
});

describe('GET /channel_folders', () => {
  it('lists the folders in order for anyone, archived ones only when asked', async () => {
    await create('adam', { name: 'Old', description: '' });
    await patchFolder('adam', 2, { is_archived: true });
    const { status, body } = await realm.as('gail').get('/channel_folders');
    expect(status).toBe(200);
    expect(body.channel_folders.map((f: { name: string }) => f.name)).toEqual(['Work']);
    expect((await list({ include_archived: true })).map((f: { name: string }) => f.name)).toEqual(['Work', 'Old']);
  });
});

describe('PATCH /channel_folders/{channel_folder_id}', () => {
  it('renames, redescribes and archives, with one update event per change', async () => {
    await create('adam', { name: 'Fun', description: '' });
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await patchFolder('adam', 2, { name: 'Play', description: 'Games', is_archived: true })).body).toEqual({ result: 'success', msg: '' });
    expect(mia.events).toEqual([
      { id: 0, type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { name: 'Play' } },
      { id: 1, type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { description: 'Games', rendered_description: '<p>Games</p>' } },
      { id: 2, type: 'channel_folder', op: 'update', channel_folder_id: 2, data: { is_archived: true } },
    ]);
    expect((await list({ include_archived: true })).find((f: { id: number }) => f.id === 2)).toMatchObject({ name: 'Play', description: 'Games', is_archived: true });
    await patchFolder('adam', 2, { is_archived: false });
    expect(mia.events.at(-1)).toMatchObject({ data: { is_archived: false } });
  });

  it('sends nothing for values that do not change, and allows a change of case', async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    await patchFolder('adam', WORK, { name: 'Work', description: 'Work channels', is_archived: false });
    expect(mia.events).toEqual([]);
    await patchFolder('adam', WORK, { name: 'WORK' });
    expect(mia.events).toEqual([{ id: 0, type: 'channel_folder', op: 'update', channel_folder_id: WORK, data: { name: 'WORK' } }]);
  });

  it('refuses to archive a folder that still holds channels', async () => {
    await expectRefused(realm, () => patchFolder('adam', WORK, { is_archived: true }), error('You need to remove all the channels from this folder to archive it.'));
  });

  it('refuses unknown folders, taken names and non-administrators', async () => {
    await create('adam', { name: 'Fun', description: '' });
    await expectRefused(realm, () => patchFolder('adam', 9, { name: 'x' }), error('Invalid channel folder ID'));
    await expectRefused(realm, () => patchFolder('adam', 2, { name: 'work' }), error('Channel folder name already in use'));
    await expectRefused(realm, () => patchFolder('mark', 2, { name: 'Mine' }), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    await expectRefused(realm, () => patchFolder('adam', 2, { is_archived: 'yes' }), error('is_archived is not valid JSON'));
  });
});

describe('PATCH /channel_folders (reorder)', () => {
  it('puts the folders in the given order and tells every user with op reorder', async () => {
    await create('adam', { name: 'Fun', description: '' });
    await create('adam', { name: 'Play', description: '' });
    const gail = openQueue(realm.engine, IDS.gail, { capabilities: { ...NO_CAPABILITIES } });
    expect((await reorder('adam', [3, WORK, 2])).status).toBe(200);
    expect(gail.events).toEqual([{ id: 0, type: 'channel_folder', op: 'reorder', order: [3, WORK, 2] }]);
    expect((await list()).map((f: { id: number; order: number }) => [f.id, f.order])).toEqual([[3, 0], [WORK, 1], [2, 2]]);
  });

  it('refuses an order that leaves out, repeats or invents a folder', async () => {
    await create('adam', { name: 'Fun', description: '' });
    await expectRefused(realm, () => reorder('adam', [2]), error('Invalid order mapping.'));
    await expectRefused(realm, () => reorder('adam', [2, 2, WORK]), error('Invalid order mapping.'));
    await expectRefused(realm, () => reorder('adam', [2, WORK, 7]), error('Invalid order mapping.'));
    await expectRefused(realm, () => reorder('adam', 'first'), error('order is not valid JSON'));
  });

  it('refuses non-administrators', async () => {
    await expectRefused(realm, () => reorder('mona', [WORK]), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });
});

describe('/register channel_folders', () => {
  it('lists the folders in order, archived ones only for clients with archived_channels', async () => {
    await create('adam', { name: 'Old', description: '' });
    await patchFolder('adam', 2, { is_archived: true });
    const plain = await realm.as('mia').post('/register', { fetch_event_types: ['channel_folders'] });
    expect(plain.body.channel_folders.map((f: { id: number }) => f.id)).toEqual([WORK]);
    const modern = await realm.as('mia').post('/register', {
      fetch_event_types: ['channel_folders'],
      client_capabilities: { archived_channels: true },
    });
    expect(modern.body.channel_folders).toEqual([
      expect.objectContaining({ id: WORK, name: 'Work', order: 0 }),
      expect.objectContaining({ id: 2, name: 'Old', order: 2, is_archived: true, creator_id: IDS.adam }),
    ]);
  });
});
