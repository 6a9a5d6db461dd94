import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRealm, importRealm } from '../../src/engine/realm-archive/realm-archive.ts';
import { expectRefused } from '../support/expect-refused.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const png = (name = 'tick.png') => new File([PNG], name, { type: 'image/png' });
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>, status = 400) => expectRefused(realm, send, expected, status);
const upload = (user: TestUser, name: string, files: File[] = [png()]) => realm.as(user).postFiles(`/realm/emoji/${encodeURIComponent(name)}`, files);
const listed = async () => (await realm.as('mark').get('/realm/emoji')).body.emoji;

describe('POST /realm/emoji/{emoji_name}', () => {
  it('adds the emoji, serves its image at source_url to anyone, and sends the whole list to every user', async () => {
    const watcher = openQueue(realm.engine, IDS.gail);
    const { status, body } = await upload('mark', 'green tick');
    expect([status, body]).toEqual([200, { result: 'success', msg: '' }]);
    const emoji = await listed();
    expect(emoji).toEqual({
      '1': { id: '1', name: 'green_tick', source_url: expect.stringMatching(/^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/tick\.png$/), still_url: null, deactivated: false, author_id: IDS.mark },
    });
    expect(watcher.events).toEqual([{ id: 0, type: 'realm_emoji', op: 'update', realm_emoji: emoji }]);
    const image = await realm.anonymous().fetchFile(emoji['1'].source_url, false);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
  });

  it("keeps the image when the realm is replaced by an archive of itself", async () => {
    await upload('mark', 'tick');
    const sourceUrl = (await listed())['1'].source_url;
    await importRealm(realm.engine, JSON.parse(JSON.stringify(await exportRealm(realm.engine))));
    const image = await realm.anonymous().fetchFile(sourceUrl, false);
    expect(image.status).toBe(200);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
  });

  it('lets administrators override a built-in emoji name, and no one else', async () => {
    await refused(() => upload('mark', 'smile'), error('Only administrators can override built-in emoji.'));
    expect((await upload('adam', 'smile')).body).toEqual({ result: 'success', msg: '' });
  });

  it("refuses names upstream refuses, an existing name, guests, and a file that is not one image of upstream's types or is too large", async () => {
    await upload('mark', 'tick');
    await refused(() => upload('mark', 'tick'), error('A custom emoji with this name already exists.'));
    await refused(() => upload('mark', 'Tick'), error('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'));
    await refused(() => upload('mark', 'tick_'), error('Emoji names must end with either a letter or digit.'));
    await refused(() => upload('mark', ' '), error('Emoji name is missing'));
    await refused(() => upload('gail', 'custom1'), error('Not allowed for guest users'));
    await refused(() => upload('mark', 'custom1', []), error('You must upload exactly one file.'));
    await refused(() => upload('mark', 'custom1', [png('a.png'), png('b.png')]), error('You must upload exactly one file.'));
    await refused(() => upload('mark', 'custom1', [new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' })]), error('Invalid image format'));
    await refused(() => upload('mark', 'custom1', [new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' })]), error('Uploaded file is larger than the allowed limit of 5 MiB'));
  });

  it('follows the realm setting for who may add custom emoji', async () => {
    await realm.engine.db.realm.update(1, { can_add_custom_emoji_group: 3 } as never);
    await refused(() => upload('mark', 'custom1'), error('Insufficient permission'));
  });
});

describe('DELETE /realm/emoji/{emoji_name}', () => {
  it('deactivates the emoji for its author, keeping it listed as deactivated', async () => {
    await upload('mark', 'tick');
    const watcher = openQueue(realm.engine, IDS.mia);
    expect((await realm.as('mark').delete('/realm/emoji/tick')).body).toEqual({ result: 'success', msg: '' });
    const emoji = await listed();
    expect(emoji['1'].deactivated).toBe(true);
    expect(watcher.events).toEqual([{ id: 0, type: 'realm_emoji', op: 'update', realm_emoji: emoji }]);
    // The name is free again.
    expect((await upload('mia', 'tick')).body).toEqual({ result: 'success', msg: '' });
  });

  it("lets administrators deactivate anyone's emoji, and refuses other users and unknown names", async () => {
    await upload('mark', 'tick');
    await refused(() => realm.as('mia').delete('/realm/emoji/tick'), error('Must be an organization administrator or emoji author'));
    await refused(() => realm.as('adam').delete('/realm/emoji/nope'), error("Emoji 'nope' does not exist"), 404);
    expect((await realm.as('adam').delete('/realm/emoji/tick')).status).toBe(200);
  });
});
