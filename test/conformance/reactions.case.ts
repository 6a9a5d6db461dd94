import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

export const reactionCases = caseSuite('reactions', (api) => {
  const sendFresh = async (topic: string) =>
    (await api.as('mark').post('/messages', { type: 'channel', to: 'general', topic, content: 'react to me' })).body.id as number;
  const reactionsOn = async (id: number) => (await api.as('olivia').get(`/messages/${id}`)).body.message.reactions;

  it('adds a unicode reaction by name, shown on the message to every viewer', async () => {
    const id = await sendFresh('add');
    const added = await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOn(id)).toEqual([
      expect.objectContaining({ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: IDS.mia }),
    ]);
  });

  it('takes upstream’s reaction type name zulip_extra_emoji for the spec’s service_extra_emoji, adding and removing', async () => {
    const id = await sendFresh('zulip emoji');
    const added = await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    expect(added.body).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOn(id)).toEqual([
      expect.objectContaining({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji', user_id: IDS.mia }),
    ]);
    const removed = await api.as('mia').delete(`/messages/${id}/reactions`, { emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    expect(removed.body).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOn(id)).toEqual([]);
  });

  it('refuses the same reaction twice with REACTION_ALREADY_EXISTS', async () => {
    const id = await sendFresh('twice');
    await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    const again = await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: 'octopus', emoji_code: '1f419' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(error('Reaction already exists.', 'REACTION_ALREADY_EXISTS'));
    expect(await reactionsOn(id)).toHaveLength(1);
  });

  it('counts another name for the same emoji as a vote under the first name', async () => {
    const id = await sendFresh('votes');
    await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: '+1' });
    await api.as('mark').post(`/messages/${id}/reactions`, { emoji_name: 'thumbsup' });
    expect((await reactionsOn(id)).map((r: { user_id: number; emoji_name: string }) => [r.user_id, r.emoji_name])).toEqual([
      [IDS.mia, '+1'],
      [IDS.mark, '+1'],
    ]);
  });

  it('removes only the caller’s own reaction', async () => {
    const id = await sendFresh('remove');
    await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    expect((await api.as('mark').delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' })).body).toEqual(
      error("Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST'),
    );
    const removed = await api.as('mia').delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    expect(removed.body).toEqual({ result: 'success', msg: '' });
    expect(await reactionsOn(id)).toEqual([]);
  });

  it('refuses unknown emoji, mismatched codes, a missing name and invisible messages', async () => {
    const id = await sendFresh('refused');
    expect((await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: 'no_such_emoji' })).body).toEqual(error("Emoji 'no_such_emoji' does not exist"));
    expect((await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: 'tada', emoji_code: '1f419' })).body).toEqual(error('Invalid emoji name.'));
    expect((await api.as('mia').post(`/messages/${id}/reactions`, { emoji_code: '1f419' })).body).toEqual({
      result: 'error',
      msg: "Missing 'emoji_name' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'emoji_name',
    });
    expect((await api.as('gail').post('/messages/3/reactions', { emoji_name: 'tada' })).body).toEqual(error('Invalid message(s)'));
    expect((await api.as('mia').delete(`/messages/${id}/reactions`, {})).body).toEqual(
      error('At least one of the following arguments must be present: emoji_name, emoji_code'),
    );
    expect(await reactionsOn(id)).toEqual([]);
  });
});
