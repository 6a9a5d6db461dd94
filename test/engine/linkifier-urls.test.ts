import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code: 'BAD_REQUEST', ...extra });
const addLinkifier = (pattern: string, url_template: string) => realm.as('adam').post('/realm/filters', { pattern, url_template });

/** A guest sends `text` as both topic and content; returns the message's topic links and HTML. */
async function sentByGuest(text: string): Promise<{ topic_links: { text: string; url: string }[]; content: string }> {
  const sent = await realm.as('gail').post('/messages', { type: 'stream', to: 'general', topic: text, content: text });
  expect(sent.body).toMatchObject({ result: 'success' });
  const { body } = await realm.as('gail').get(`/messages/${sent.body.id}`);
  return { topic_links: body.message.topic_links, content: body.message.content };
}

describe('linkifier URLs', () => {
  // `{+u}` takes the matched text as it is: whoever writes the topic writes the URL.
  beforeEach(async () => {
    expect((await addLinkifier('go:(?P<u>[^ ]+)', '{+u}')).body).toMatchObject({ result: 'success' });
  });

  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>', 'javascript&colon;alert(1)'])(
    'never come out as a %s link, in topic links or in content',
    async (payload) => {
      const { topic_links, content } = await sentByGuest(`go:${payload}`);
      expect(topic_links).toEqual([]);
      expect(content).not.toContain('<a');
    },
  );

  it('come out as http(s) links, in topic links and in content', async () => {
    expect((await addLinkifier('#(?P<id>[0-9]+)', 'https://tracker.example/{id}')).body).toMatchObject({ result: 'success' });
    const { topic_links, content } = await sentByGuest('see #12 and go:https://tracker.example/x');
    expect(topic_links).toEqual([
      { text: '#12', url: 'https://tracker.example/12' },
      { text: 'go:https://tracker.example/x', url: 'https://tracker.example/x' },
    ]);
    expect(content).toContain('<a href="https://tracker.example/12">#12</a>');
  });
});

describe('POST /realm/filters', () => {
  it.each(['javascript:alert({id})', 'vbscript:{id}', 'data:text/html,{id}'])('refuses the template %s, whose scheme is not a web one', async (template) => {
    await expectRefused(realm, () => addLinkifier('#(?P<id>[0-9]+)', template), error('Invalid URL template.', { errors: { url_template: ['Invalid URL template.'] } }));
  });

  it('refuses a pattern or a template over 1000 characters before compiling it', async () => {
    await expectRefused(realm, () => addLinkifier(`(?P<id>${'a'.repeat(1000)})`, 'https://x.example/{id}'), error('pattern is too long (limit: 1000 characters)'));
    await expectRefused(realm, () => addLinkifier('(?P<id>a)', `https://x.example/${'a'.repeat(10_000_000)}{id}`), error('url_template is too long (limit: 1000 characters)'));
  });

  it('refuses a pattern whose compiled program is too large, as upstream refuses one too large for re2', async () => {
    // Matching costs the program's size per character: 12 such patterns took 2 s on a 10,000-character message.
    const big = '(?P<id>[a ]{1,124}b)';
    const msg = 'Bad regular expression: pattern too large - compile failed';
    await expectRefused(realm, () => addLinkifier(big, 'https://x.example/{id}'), error(msg, { errors: { __all__: [msg] } }));
    expect((await addLinkifier('(?P<id>[a ]{1,120}b)', 'https://x.example/{id}')).body).toMatchObject({ result: 'success' });
  });

  it("refuses a linkifier that would take the realm's patterns together past their bound", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await addLinkifier(`(?P<id>[a ]{1,120}${i})`, 'https://x.example/{id}')).body).toMatchObject({ result: 'success' });
    }
    const msg = "The organization's linkifier patterns are too large together: remove or simplify one first.";
    await expectRefused(realm, () => addLinkifier('(?P<id>[a ]{1,120}z)', 'https://x.example/{id}'), error(msg, { errors: { __all__: [msg] } }));
    // A small one still fits, and an edit that keeps the total within the bound is taken.
    expect((await addLinkifier('#(?P<id>[0-9]+)', 'https://x.example/{id}')).body).toMatchObject({ result: 'success' });
    expect((await realm.as('adam').patch('/realm/filters/1', { pattern: '(?P<id>[a ]{1,110}0)', url_template: 'https://x.example/{id}' })).body).toMatchObject({
      result: 'success',
    });
  });

  it('takes a pattern and a template of 1000 characters', async () => {
    const { body } = await addLinkifier(`(?P<id>[${'a'.repeat(990)}])`, `https://x.example/${'a'.repeat(978)}{id}`);
    expect(body).toEqual({ result: 'success', msg: '', id: 1 });
  });
});
