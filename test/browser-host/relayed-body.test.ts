import { describe, expect, test } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../../src/engine/http/request-params.ts';
import { MAX_RELAYED_MULTIPART_BYTES, relayedBody } from '../../src/browser-host/relay-client/relayed-body.ts';
import { createTestRealm } from '../support/test-realm.ts';

const CHUNK_BYTES = 1024 * 1024;
const URL = 'http://zulip.test/api/v1/messages';

/** A body of `chunks` MiB that counts how much of it was read. */
function countedBody(chunks: number): { stream: ReadableStream<Uint8Array>; pulled(): number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks * CHUNK_BYTES) return controller.close();
      pulled += CHUNK_BYTES;
      controller.enqueue(new Uint8Array(CHUNK_BYTES).fill(0x61));
    },
  });
  return { stream, pulled: () => pulled };
}

const post = (body: BodyInit, headers: Record<string, string>) => new Request(URL, { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('the Service Worker relay reads a body no further than the engine would', () => {
  test('passes a form body within the limit on whole', async () => {
    const relayed = await relayedBody(post('content=hi&to=general', { 'Content-Type': 'application/x-www-form-urlencoded' }));
    expect('body' in relayed && new TextDecoder().decode(relayed.body!)).toBe('content=hi&to=general');
  });

  test('refuses a form body declared longer than the engine’s limit without reading any of it', async () => {
    const body = countedBody(100);
    const relayed = await relayedBody(
      post(body.stream, { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(MAX_REQUEST_BODY_BYTES + 1) }),
    );
    expect(body.pulled()).toBeLessThanOrEqual(CHUNK_BYTES);
    expect('refused' in relayed && relayed.refused.status).toBe(413);
  });

  test('stops reading an undeclared form body as soon as it passes the limit, with the engine’s own refusal', async () => {
    const body = countedBody(400);
    const relayed = await relayedBody(post(body.stream, { 'Content-Type': 'application/x-www-form-urlencoded' }));
    // Streams read ahead by a chunk or two; nowhere near the 400 MiB sent.
    expect(body.pulled()).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES + 3 * CHUNK_BYTES);
    if (!('refused' in relayed)) throw new Error('not refused');

    // The engine refuses the same body with the same answer.
    const realm = await createTestRealm();
    const mark = realm.as('mark');
    const engineAnswer = await realm.engine.handle(
      post('x'.repeat(MAX_REQUEST_BODY_BYTES + 1), {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${btoa(`${mark.email}:${mark.apiKey}`)}`,
      }),
    );
    realm.engine.close();
    expect(relayed.refused.status).toBe(engineAnswer.status);
    expect(await relayed.refused.text()).toBe(await engineAnswer.text());
  });

  test('bounds a multipart body by the largest upload any realm may allow', async () => {
    const relayed = await relayedBody(
      post(countedBody(1).stream, { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(MAX_RELAYED_MULTIPART_BYTES + 1) }),
    );
    expect('refused' in relayed && relayed.refused.status).toBe(413);
  });

  test('reads no body of a type the engine never reads', async () => {
    const body = countedBody(100);
    const relayed = await relayedBody(post(body.stream, { 'Content-Type': 'text/plain' }));
    expect(relayed).toEqual({ body: null });
    expect(body.pulled()).toBeLessThanOrEqual(CHUNK_BYTES);
  });
});
