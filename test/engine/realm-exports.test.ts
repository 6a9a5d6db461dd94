import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>, status = 400) => expectRefused(realm, send, expected, status);
const NOW = Date.UTC(2026, 0, 1, 12) / 1000;

describe('POST /export/realm', () => {
  it('makes the realm archive, lists it with its URL, and tells the administrators as it goes', async () => {
    const admin = openQueue(realm.engine, IDS.olivia);
    const member = openQueue(realm.engine, IDS.mark);
    const { status, body } = await realm.as('adam').post('/export/realm', { export_type: 2 });
    expect([status, body]).toEqual([200, { result: 'success', msg: '', id: 1 }]);
    const { exports } = (await realm.as('adam').get('/export/realm')).body;
    expect(exports).toEqual([
      {
        id: 1,
        acting_user_id: IDS.adam,
        export_time: NOW,
        deleted_timestamp: null,
        failed_timestamp: null,
        export_url: expect.stringMatching(/^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/offline-realm-export-1\.json$/),
        pending: false,
        export_type: 2,
      },
    ]);
    expect(admin.events).toEqual([
      { id: 0, type: 'realm_export', exports: [{ ...exports[0], export_url: null, pending: true }] },
      { id: 1, type: 'realm_export', exports },
    ]);
    expect(member.events).toEqual([]);
    const file = await realm.anonymous().fetchFile(exports[0].export_url, false);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="offline-realm-export-1.json"');
    const archive = JSON.parse(await file.text());
    expect(archive.format).toBe('offline-realm-archive');
    expect(archive.tables.users.map((u: { id: number }) => u.id)).toContain(IDS.mark);
  });

  it('serves the archive to administrators who authenticate, and to no other user', async () => {
    await realm.as('adam').post('/export/realm');
    const url = (await realm.as('adam').get('/export/realm')).body.exports[0].export_url;
    expect((await realm.as('olivia').fetchFile(url)).status).toBe(200);
    expect((await realm.as('mark').fetchFile(url)).status).toBe(403);
  });

  it('allows five exports a week, as upstream', async () => {
    for (let i = 0; i < 5; i++) expect((await realm.as('adam').post('/export/realm')).status).toBe(200);
    await refused(() => realm.as('adam').post('/export/realm'), error('Exceeded rate limit.'));
    realm.clock.advance(7 * 24 * 60 * 60 * 1000 + 1000);
    expect((await realm.as('adam').post('/export/realm')).body).toEqual({ result: 'success', msg: '', id: 6 });
  });

  it('refuses members and unknown export types', async () => {
    await refused(() => realm.as('mark').post('/export/realm'), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    await refused(() => realm.as('adam').post('/export/realm', { export_type: 3 }), error('Invalid export_type'));
  });
});

describe('GET /export/realm/consents', () => {
  it("lists every active human's consent to export their private data", async () => {
    await realm.as('mia').patch('/settings', { allow_private_data_export: true });
    const { body } = await realm.as('adam').get('/export/realm/consents');
    expect(body).toEqual({
      result: 'success',
      msg: '',
      export_consents: [IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.mia, IDS.gail].map((id) => ({ user_id: id, consented: id === IDS.mia })),
    });
    await refused(() => realm.as('mark').get('/export/realm/consents'), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });
});
