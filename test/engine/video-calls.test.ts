import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

/** The meeting a URL carries: the signed object's JSON, before the signature. */
function meetingIn(url: string): Record<string, unknown> {
  const match = /^\/calls\/bigbluebutton\/join\?bigbluebutton=([A-Za-z0-9_-]+):([A-Za-z0-9_-]{43})$/.exec(url);
  expect(match).not.toBeNull();
  return JSON.parse(Buffer.from(match![1]!, 'base64url').toString('utf8'));
}

describe('GET /calls/bigbluebutton/create', () => {
  it('answers upstream’s join URL with the signed meeting, the caller as its moderator', async () => {
    const { status, body } = await realm.as('mark').get('/calls/bigbluebutton/create', { meeting_name: 'design meeting', voice_only: true });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', url: expect.any(String) });
    expect(meetingIn(body.url)).toEqual({
      meeting_id: expect.stringMatching(/^zulip-[1-9]\d{11}$/),
      name: 'design meeting',
      lock_settings_disable_cam: true,
      moderator: IDS.mark,
    });
  });

  it('makes a new meeting each time, with cameras on unless voice_only', async () => {
    const create = async () => meetingIn((await realm.as('mia').get('/calls/bigbluebutton/create', { meeting_name: 'Café' })).body.url);
    const [first, second] = [await create(), await create()];
    expect(first).toMatchObject({ name: 'Café', lock_settings_disable_cam: false });
    expect(first.meeting_id).not.toBe(second.meeting_id);
  });

  it('requires a meeting name', async () => {
    expect(await realm.as('mia').get('/calls/bigbluebutton/create')).toEqual({
      status: 400,
      body: { result: 'error', msg: "Missing 'meeting_name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'meeting_name' },
    });
  });

  it('signs a meeting name of any length (160,000 characters overflowed the stack: a 500)', async () => {
    const meetingName = `${' '.repeat(160_000)}x`;
    const { status, body } = await realm.as('mia').get('/calls/bigbluebutton/create', { meeting_name: meetingName });
    expect(status).toBe(200);
    expect(meetingIn(body.url)).toMatchObject({ name: meetingName, moderator: IDS.mia });
  });
});
