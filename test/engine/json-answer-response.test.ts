import { describe, expect, test } from 'vitest';
import { jsonResponseText, platformResponse, unreadJsonAnswer } from '../../src/engine/http/json-answer-response.ts';
import { jsonResponse } from '../../src/engine/http/json-response.ts';
import { createTestRealm } from '../support/test-realm.ts';

const BODY = '{"result":"success","msg":""}\n';

describe("the engine's JSON answers, Responses built on demand", () => {
  test('give a host their status, headers and text unread, and the same bytes when read as a Response', async () => {
    const response = jsonResponse({ result: 'success', msg: '' }, 200, { 'X-Extra': 'yes' });

    expect(unreadJsonAnswer(response)).toEqual({ status: 200, headers: { 'Content-Type': 'application/json', 'X-Extra': 'yes' }, text: BODY });
    expect(await response.text()).toBe(BODY);
    expect(unreadJsonAnswer(response)).toBeNull();
  });

  test('are Responses to any reader: instanceof, status, headers, body, clone and a second read refused', async () => {
    const response = jsonResponse({ result: 'error', msg: 'No', code: 'BAD_REQUEST' }, 400);

    expect(response).toBeInstanceOf(Response);
    expect(Object.prototype.toString.call(response)).toBe('[object Response]');
    expect([response.status, response.ok, response.statusText, response.type, response.bodyUsed]).toEqual([400, false, '', 'default', false]);
    expect(response.headers.get('content-type')).toBe('application/json');
    const copy = response.clone();
    expect(await response.json()).toEqual({ result: 'error', msg: 'No', code: 'BAD_REQUEST' });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(await copy.text()).toBe('{"result":"error","msg":"No","code":"BAD_REQUEST"}\n');
  });

  test('once their headers are read, are no longer offered unread (a reader may have changed them)', () => {
    const response = jsonResponse({ result: 'success', msg: '' });
    response.headers.set('X-Added', 'later');

    expect(unreadJsonAnswer(response)).toBeNull();
  });

  test("give the platform's own Response to code that checks for one", async () => {
    const response = platformResponse(jsonResponse({ result: 'success', msg: '' }));

    expect(await Response.prototype.text.call(response)).toBe(BODY);
  });

  test('are not offered unread when the engine made the response some other way', () => {
    expect(unreadJsonAnswer(new Response(BODY))).toBeNull();
  });

  test('give a relay their text while unread, as built Responses too', async () => {
    const answer = jsonResponse({ result: 'success', msg: '' });
    const response = platformResponse(answer);

    expect([jsonResponseText(answer), jsonResponseText(response)]).toEqual([BODY, BODY]);
    expect(await response.text()).toBe(BODY);
    expect([jsonResponseText(answer), jsonResponseText(response), jsonResponseText(new Response(BODY))]).toEqual([null, null, null]);
  });

  test("come from handle() as the platform's own Responses, or unbuilt to a host that writes JSON itself", async () => {
    const { engine } = await createTestRealm();
    const authorization = `Basic ${btoa('olivia@zulip.test:OwnerKey000000000000000000000001')}`;
    const ask = () => new Request('http://zulip.test/api/v1/users/me', { headers: { Authorization: authorization } });
    const platform = await engine.handle(ask());
    const unbuilt = await engine.handle(ask(), { writesJsonItself: true });
    const answer = unreadJsonAnswer(unbuilt);

    expect(unreadJsonAnswer(platform)).toBeNull();
    expect(await Response.prototype.text.call(platform)).toBe(answer?.text);
    expect(answer?.status).toBe(200);
    expect(answer?.text).toContain('"email":"olivia@zulip.test"');
    expect(await unbuilt.text()).toBe(answer?.text);
  });
});
