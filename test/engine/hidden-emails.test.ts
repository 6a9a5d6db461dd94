import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
  // Real addresses for administrators only. No endpoint changes the realm's
  // email_address_visibility (a scenario setting): it is seeded in storage.
  await realm.engine.db.realm.update(1, { email_address_visibility: 3 });
});
afterEach(() => realm.engine.close());

const OLIVIA_REAL = 'olivia@zulip.test';
const OLIVIA_DUMMY = `user${IDS.olivia}@zulip.test`;
const badNarrow = (desc: string) => ({ result: 'error', msg: `Invalid narrow operator: ${desc}`, code: 'BAD_NARROW', desc });
const narrowed = (user: 'mark' | 'adam', narrow: unknown[]) =>
  realm.as(user).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
const ids = (body: Record<string, any>) => (body.messages as { id: number }[]).map((m) => m.id);

describe('a real email the caller may not see', () => {
  it.each([
    ['sender', OLIVIA_REAL, `unknown user ${OLIVIA_REAL}`],
    ['dm-including', OLIVIA_REAL, `unknown user ${OLIVIA_REAL}`],
    ['dm', OLIVIA_REAL, `unknown user in ${OLIVIA_REAL}`],
  ])('names no one in a %s narrow', async (operator, operand, desc) => {
    await expectRefused(realm, () => narrowed('mark', [{ operator, operand }]), badNarrow(desc));
  });

  it('names no one as a direct message recipient', async () => {
    await expectRefused(
      realm,
      () => realm.as('mark').post('/messages', { type: 'direct', to: JSON.stringify([OLIVIA_REAL]), content: 'hi' }),
      { result: 'error', msg: `Invalid email '${OLIVIA_REAL}'`, code: 'BAD_REQUEST' },
    );
  });

  it('is not shown back when a recipient by id is deactivated', async () => {
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    await expectRefused(realm, () => realm.as('mark').post('/messages', { type: 'direct', to: JSON.stringify([IDS.mia]), content: 'hi' }), {
      result: 'error',
      msg: `'user${IDS.mia}@zulip.test' is no longer using Zulip.`,
      code: 'BAD_REQUEST',
    });
  });
});

describe('the address the caller sees', () => {
  it('names the user: the dummy one for a member, the real one for an administrator', async () => {
    expect(ids((await narrowed('mark', [{ operator: 'sender', operand: OLIVIA_DUMMY }])).body)).toEqual([1, 4]);
    expect(ids((await narrowed('adam', [{ operator: 'sender', operand: OLIVIA_REAL }])).body)).toEqual([1]);
    expect((await narrowed('mark', [{ operator: 'dm', operand: OLIVIA_DUMMY }])).body).toMatchObject({ result: 'success' });
    const sent = await realm.as('mark').post('/messages', { type: 'direct', to: JSON.stringify([OLIVIA_DUMMY]), content: 'hi' });
    expect(sent.body).toMatchObject({ result: 'success' });
  });

  it('of oneself is always the real one', async () => {
    expect((await narrowed('mark', [{ operator: 'sender', operand: 'mark@zulip.test' }])).body).toMatchObject({ result: 'success' });
  });
});
