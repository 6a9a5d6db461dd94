import type { TestRealm } from './test-realm.ts';

/** The accept address an invitation's mail carries (path and confirmation key), as the invitee reads it. */
export async function acceptAddressFromMail(realm: TestRealm, inviteId: number): Promise<string> {
  const mail = (await realm.as('olivia').get('/sandbox/outgoing_mail')).body.outgoing_mail as { body: string }[];
  for (const { body } of mail) {
    for (const match of body.matchAll(/\/api\/v1(\/sandbox\/invites\/(\d+)\/accept\?key=[a-z0-9]+)/g)) {
      if (Number(match[2]) === inviteId) return match[1];
    }
  }
  throw new Error(`no mail for invitation ${inviteId}`);
}
