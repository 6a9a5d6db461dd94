import { describe, expect, it } from 'vitest';
import { relayTimeoutMs } from '../../src/browser-host/relay-client/relay-answers.ts';

const at = (method: string, path: string) => new Request(`https://chat.test${path}`, { method });

describe('how long the relay waits for the engine', () => {
  it('gives a long-poll 90 s, an upload or an uploaded file 120 s, a login 180 s, and any other request 10 s', () => {
    expect(relayTimeoutMs(at('GET', '/api/v1/events?queue_id=q'))).toBe(90_000);
    expect(relayTimeoutMs(at('POST', '/api/v1/user_uploads'))).toBe(120_000);
    expect(relayTimeoutMs(at('GET', '/user_uploads/1/ab/cdef/photo.png'))).toBe(120_000);
    expect(relayTimeoutMs(at('GET', '/user_uploads/download/1/ab/cdef/photo.png'))).toBe(120_000);
    expect(relayTimeoutMs(at('POST', '/api/v1/fetch_api_key'))).toBe(180_000);
    expect(relayTimeoutMs(at('POST', '/api/v1/messages'))).toBe(10_000);
    expect(relayTimeoutMs(at('GET', '/api/v1/users/me'))).toBe(10_000);
    expect(relayTimeoutMs(at('DELETE', '/api/v1/events'))).toBe(10_000);
  });
});
