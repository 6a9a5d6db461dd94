import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

export const inviteCases = caseSuite('invites and user groups', (api) => {
  it('invites an address, lists it, and the invitee accepts through the sandbox and logs in', async () => {
    const sent = await api.as('mark').post('/invites', { invitee_emails: 'case.one@example.com', stream_ids: [IDS.design] });
    expect(sent.body).toEqual({ result: 'success', msg: '' });
    const listed = await api.as('mark').get('/invites');
    const invite = listed.body.invites.find((i: { email: string }) => i.email === 'case.one@example.com');
    expect(invite).toMatchObject({ invited_by_user_id: IDS.mark, invited_as: 400, is_multiuse: false });

    const mail = await api.as('olivia').get('/sandbox/outgoing_mail');
    const mailed = mail.body.outgoing_mail.find((m: { to: string }) => m.to === 'case.one@example.com');
    const address = /\/api\/v1(\/sandbox\/invites\/\d+\/accept\?key=[a-z2-7]{24})/.exec(mailed.body)![1];
    expect(address).toContain(`/sandbox/invites/${invite.id}/accept`);
    const guessed = await api.anonymous().post(`/sandbox/invites/${invite.id}/accept`, { full_name: 'Case One', password: 'case-one-pass' });
    expect(guessed.body).toEqual({ ...error("Missing 'key' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'key' });

    const accepted = await api.anonymous().post(address, { full_name: 'Case One', password: 'case-one-pass' });
    expect(accepted.body).toMatchObject({ result: 'success', email: 'case.one@example.com' });
    const login = await api.anonymous().post('/fetch_api_key', { username: 'case.one@example.com', password: 'case-one-pass' });
    expect(login.body).toMatchObject({ result: 'success', api_key: accepted.body.api_key, user_id: accepted.body.user_id });
    const again = await api.anonymous().post(address, { full_name: 'Case One', password: 'case-one-pass' });
    expect(again.body).toEqual(error('The invitation has already been accepted.'));
  });

  it('creates a reusable link, lists it, two people join with it, and it is revoked', async () => {
    const created = await api.as('olivia').post('/invites/multiuse', { invite_expires_in_minutes: null, stream_ids: [IDS.design] });
    expect(created.body).toEqual({ result: 'success', msg: '', invite_link: expect.stringMatching(/\/api\/v1\/sandbox\/invites\/multiuse\/\d+\/accept\?key=[a-z2-7]{24}$/) });
    const listed = await api.as('olivia').get('/invites');
    const link = listed.body.invites.find((i: { is_multiuse: boolean; link_url?: string }) => i.is_multiuse && i.link_url === created.body.invite_link);
    expect(link).toMatchObject({ invited_by_user_id: IDS.olivia, invited_as: 400, expiry_date: null });

    const address = /\/api\/v1(\/sandbox\/.*)$/.exec(created.body.invite_link)![1];
    for (const who of ['link.one', 'link.two']) {
      const joined = await api.anonymous().post(address, { email: `${who}@example.com`, full_name: who, password: `${who}-pass` });
      expect(joined.body).toMatchObject({ result: 'success', email: `${who}@example.com` });
    }
    const revoked = await api.as('olivia').delete(`/invites/multiuse/${link.id}`);
    expect(revoked.body).toEqual({ result: 'success', msg: '' });
    const again = await api.as('olivia').delete(`/invites/multiuse/${link.id}`);
    expect(again.body).toEqual(error('Invitation has already been revoked'));
    const late = await api.anonymous().post(address, { email: 'link.three@example.com', full_name: 'Three', password: 'link-three-pass' });
    expect(late.body).toEqual(error('The invitation has been revoked.'));
  });

  it('reports addresses that already have an account with INVITATION_FAILED', async () => {
    const { status, body } = await api.as('mark').post('/invites', { invitee_emails: 'mia@zulip.test', stream_ids: [] });
    expect(status).toBe(400);
    expect(body).toEqual({
      ...error("We weren't able to invite anyone.", 'INVITATION_FAILED'),
      errors: [['mia@zulip.test', 'Already has an account.', false]],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
  });

  it('creates a user group and lists its members', async () => {
    const created = await api.as('mark').post('/user_groups/create', { name: 'case-group', description: '', members: [IDS.mark, IDS.mia] });
    expect(created.body).toEqual({ result: 'success', msg: '', group_id: expect.any(Number) });
    const members = await api.as('mia').get(`/user_groups/${created.body.group_id}/members`);
    expect(members.body).toEqual({ result: 'success', msg: '', members: [IDS.mark, IDS.mia] });
  });
});
