import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { type ApiResult, createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const address = (user: 'mark' | 'mia' | 'adam' | 'gail', channelId: number, params: Record<string, unknown> = {}) =>
  realm.as(user).get(`/streams/${channelId}/email_address`, params);

describe('GET /streams/{stream_id}/email_address', () => {
  it("answers upstream's address: the name's slug, a token of 32 hex digits, show-sender, at the realm's host", async () => {
    const { status, body } = await address('mark', IDS.general);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', email: expect.stringMatching(/^general\.[0-9a-f]{32}\.show-sender@zulip\.test$/) });
  });

  it('keeps one token per channel, requester and sender', async () => {
    const first = (await address('mark', IDS.general)).body.email;
    expect((await address('mark', IDS.general)).body.email).toBe(first);
    expect((await address('mia', IDS.general)).body.email).not.toBe(first);
    expect((await address('mark', IDS.general, { sender_id: IDS.mark })).body.email).not.toBe(first);
    expect((await address('mark', IDS.general, { sender_id: IDS.bot })).status).toBe(200);
  });

  it('leaves out a name that does not survive the way to ASCII', async () => {
    const created = await realm.as('adam').post('/users/me/subscriptions', { subscriptions: [{ name: '日本語' }] });
    expect(created.status).toBe(200);
    const channelId = (await realm.as('adam').get('/get_stream_id', { stream: '日本語' })).body.stream_id;
    expect((await address('adam', channelId)).body.email).toMatch(/^[0-9a-f]{32}\.show-sender@zulip\.test$/);
  });

  it("refuses channels the caller cannot read and senders that are not the caller's bots", async () => {
    await refused(() => address('mia', IDS.secret), error('Invalid channel ID'));
    await refused(() => address('gail', IDS.design), error('Invalid channel ID'));
    await refused(() => address('mia', IDS.general, { sender_id: IDS.bot }), error('Insufficient permission'));
    await refused(() => address('mia', IDS.general, { sender_id: IDS.mark }), error('No such bot'));
  });
});
