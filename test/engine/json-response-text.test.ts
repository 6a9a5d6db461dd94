import { describe, expect, test } from 'vitest';
import { jsonResponse, jsonResponseText } from '../../src/engine/http/json-response.ts';
import { createTestRealm } from '../support/test-realm.ts';

describe("a JSON answer's text, for hosts that copy the body elsewhere", () => {
  test('is the exact body of an answer the engine made, until the body is read', async () => {
    const response = jsonResponse({ result: 'success', msg: '' });

    expect(jsonResponseText(response)).toBe('{"result":"success","msg":""}\n');
    expect(await response.text()).toBe('{"result":"success","msg":""}\n');
    expect(jsonResponseText(response)).toBeNull();
  });

  test('is null for a response the engine did not make with jsonResponse', () => {
    expect(jsonResponseText(new Response('{"result":"success"}\n'))).toBeNull();
  });

  test("is what handle() answers, byte for byte, for a route's answer", async () => {
    const { engine } = await createTestRealm();
    const authorization = `Basic ${btoa('olivia@zulip.test:OwnerKey000000000000000000000001')}`;
    const response = await engine.handle(new Request('http://zulip.test/api/v1/users/me', { headers: { Authorization: authorization } }));
    const text = jsonResponseText(response);

    expect(response.status).toBe(200);
    expect(text).toContain('"email":"olivia@zulip.test"');
    expect(await response.text()).toBe(text);
  });
});
