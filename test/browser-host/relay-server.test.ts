import { describe, expect, test } from 'vitest';
import { type RequestHandler, serveRelayPort } from '../../src/browser-host/engine-worker/relay-server.ts';
import { ReplayGuard } from '../../src/browser-host/engine-worker/replay-guard.ts';
import type { RelayedRequest, RelayedResponse } from '../../src/browser-host/protocol/relay-protocol.ts';
import type { HandleOptions } from '../../src/engine/engine.ts';
import { unreadJsonAnswer } from '../../src/engine/http/json-answer-response.ts';
import { jsonResponse } from '../../src/engine/http/json-response.ts';

/** A relay port served by `respond`, and the options each request was handled with. */
function relayTo(respond: () => Response) {
  const calls: { options: HandleOptions | undefined; response: Response }[] = [];
  const handler: RequestHandler = {
    handle: async (_request, options) => {
      const response = respond();
      calls.push({ options, response });
      return response;
    },
  };
  const { port1, port2 } = new MessageChannel();
  serveRelayPort(port1, async () => handler, new ReplayGuard());
  const relay = (method: string): Promise<RelayedResponse> =>
    new Promise((resolve) => {
      port2.onmessage = ({ data }: MessageEvent<RelayedResponse>) => resolve(data);
      const request: RelayedRequest = { type: 'request', id: 1, relayInstance: 'sw-a', clientId: 'tab-1', method, url: 'http://app.test/api/v1/users/me', headers: [], body: null };
      port2.postMessage(request);
    });
  return { calls, relay, close: () => port2.close() };
}

const text = (body: ArrayBuffer | null) => new TextDecoder().decode(body ?? new ArrayBuffer(0));

describe("the engine worker's end of the relay", () => {
  test("relays a JSON answer from its text without building the platform's Response", async () => {
    const { calls, relay, close } = relayTo(() => jsonResponse({ result: 'success', msg: '', full_name: 'Olivia Park' }, 200, { 'X-Extra': 'yes' }));

    const reply = await relay('GET');
    close();

    expect(calls.map((call) => call.options)).toEqual([{ writesJsonItself: true }]);
    expect(reply).toMatchObject({ type: 'response', id: 1, status: 200, statusText: '' });
    expect(new Headers(reply.headers).get('content-type')).toBe('application/json');
    expect(new Headers(reply.headers).get('x-extra')).toBe('yes');
    expect(text(reply.body)).toBe('{"result":"success","msg":"","full_name":"Olivia Park"}\n');
    expect(unreadJsonAnswer(calls[0]!.response)).not.toBeNull();
  });

  test('relays an answer something already read as a Response, and any other Response, by its body', async () => {
    const used = jsonResponse({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' }, 404);
    expect(used.headers.get('content-type')).toBe('application/json');
    const answers = [used, new Response('file bytes', { status: 200, headers: { 'Content-Type': 'text/plain' } })];
    const { relay, close } = relayTo(() => answers.shift()!);

    const json = await relay('GET');
    const file = await relay('GET');
    close();

    expect([json.status, text(json.body)]).toEqual([404, '{"result":"error","msg":"Not Found","code":"BAD_REQUEST"}\n']);
    expect([file.status, new Headers(file.headers).get('content-type'), text(file.body)]).toEqual([200, 'text/plain', 'file bytes']);
  });
});
