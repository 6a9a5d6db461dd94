import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const MIB = 1024 * 1024;
const MARK = { Authorization: `Basic ${btoa('mark@zulip.test:MarkKey0000000000000000000000004')}` };
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const tooLarge = { result: 'error', msg: 'Request body too large (limit: 25 MiB)', code: 'BAD_REQUEST' };

/** A form body of `count` one-MiB chunks (endless when Infinity) that records how many were read. */
function countedBody(count: number): { stream: ReadableStream<Uint8Array>; read: () => number } {
  let read = 0;
  const chunk = new TextEncoder().encode(`a=${'x'.repeat(MIB - 2)}`);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (read >= count) return controller.close();
      read++;
      controller.enqueue(chunk);
    },
  });
  return { stream, read: () => read };
}

async function send(path: string, init: RequestInit & { headers: Record<string, string> }) {
  const response = await realm.engine.handle(new Request(`http://zulip.test/api/v1${path}`, { method: 'POST', duplex: 'half', ...init } as RequestInit));
  return { status: response.status, body: await response.json() };
}

describe('request bodies', () => {
  it('are refused with 413 from a declared length over 25 MiB, before any is read', async () => {
    const body = countedBody(Infinity);
    await expectRefused(
      realm,
      () => send('/messages', { headers: { ...MARK, ...FORM, 'Content-Length': String(400 * MIB) }, body: body.stream }),
      tooLarge,
      413,
    );
    expect(body.read()).toBeLessThanOrEqual(1);
  });

  it('are refused with 413 once a body without a declared length passes 25 MiB, read no further', async () => {
    const body = countedBody(Infinity);
    await expectRefused(realm, () => send('/messages', { headers: { ...MARK, ...FORM }, body: body.stream }), tooLarge, 413);
    expect(body.read()).toBeLessThanOrEqual(27);
  });

  it('are not read at all when the request lacks the authentication its endpoint needs', async () => {
    const body = countedBody(Infinity);
    const { status, body: answer } = await send('/messages', { headers: FORM, body: body.stream });
    expect({ status, answer }).toEqual({
      status: 401,
      answer: { result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' },
    });
    expect(body.read()).toBeLessThanOrEqual(1);
  });

  it('of 25 MiB are read', async () => {
    const body = countedBody(25);
    const { status } = await send('/users/me/presence', { headers: { ...MARK, ...FORM }, body: body.stream });
    // Read and parsed: the endpoint then reports its own missing parameter.
    expect(status).toBe(400);
    expect(body.read()).toBe(25);
  });
});

describe('parameters', () => {
  const params = (count: number, prefix = 'p') => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, 'x']));

  it('are refused past 1000 in one request, body and query string together', async () => {
    const expected = { result: 'error', msg: 'Too many parameters (limit: 1000)', code: 'BAD_REQUEST' };
    await expectRefused(realm, () => realm.as('mark').post('/users/me/presence', { status: 'active', ...params(1000) }), expected);
    await expectRefused(realm, () => realm.as('mark').get('/users/me', params(1001)), expected);
  });

  it('up to 1000 are read, the unknown ones reported', async () => {
    const { body } = await realm.as('mark').get('/users/me', params(1000));
    expect(body.ignored_parameters_unsupported).toHaveLength(1000);
  });
});
