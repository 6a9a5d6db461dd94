import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

/** 2100-01-01: in the future on every host's clock, so nothing falls due during the cases. */
const LATER = 4102444800;

export const scheduledMessageCases = caseSuite('scheduled messages and reminders', (api) => {
  it('schedules, lists, edits and cancels a message', async () => {
    const created = await api.as('mark').post('/scheduled_messages', {
      type: 'channel', to: IDS.general, topic: 'later', content: 'see you **later**', scheduled_delivery_timestamp: LATER,
    });
    expect(created.status).toBe(200);
    const id = created.body.scheduled_message_id as number;
    const edited = await api.as('mark').patch(`/scheduled_messages/${id}`, { type: 'direct', to: [IDS.mia] });
    expect(edited.body).toEqual({ result: 'success', msg: '' });
    expect((await api.as('mark').get('/scheduled_messages')).body.scheduled_messages).toEqual([
      {
        scheduled_message_id: id,
        to: [IDS.mia],
        type: 'private',
        content: 'see you **later**',
        rendered_content: '<p>see you <strong>later</strong></p>',
        scheduled_delivery_timestamp: LATER,
        failed: false,
      },
    ]);
    expect((await api.as('mark').delete(`/scheduled_messages/${id}`)).status).toBe(200);
    expect((await api.as('mark').get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
  });

  it('answers 404 for a scheduled message that does not exist', async () => {
    const answer = await api.as('mark').delete('/scheduled_messages/9999');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ result: 'error', msg: 'Scheduled message does not exist', code: 'BAD_REQUEST' });
  });

  it('refuses an unknown channel with STREAM_DOES_NOT_EXIST and stream_id', async () => {
    const answer = await api.as('mark').post('/scheduled_messages', {
      type: 'stream', to: 404, topic: 't', content: 'x', scheduled_delivery_timestamp: LATER,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: 'error', msg: "Channel with ID '404' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream_id: 404 });
  });

  it('schedules, lists and cancels a reminder about a message', async () => {
    const created = await api.as('mark').post('/reminders', { message_id: 2, scheduled_delivery_timestamp: LATER, note: 'reply' });
    expect(created.status).toBe(200);
    const id = created.body.reminder_id as number;
    const { body } = await api.as('mark').get('/reminders');
    expect(body.reminders).toEqual([
      expect.objectContaining({ reminder_id: id, to: [IDS.mark], type: 'private', reminder_target_message_id: 2, failed: false }),
    ]);
    expect((await api.as('mark').delete(`/reminders/${id}`)).status).toBe(200);
    expect((await api.as('mark').get('/reminders')).body.reminders).toEqual([]);
  });
});
