// `npm run bench:hostile`: how long the heaviest hostile requests of issue 10 hold the event
// loop (the engine's target: no request blocks it for more than ~50 ms on a 2-core machine).
// Each line: the request's total time, the longest event-loop delay seen while it ran, and
// what it answered. A figure, not a test: run it on a quiet machine.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type ApiResult, createTestRealm } from '../test/support/test-realm.ts';

const realm = await createTestRealm();
async function measure(name: string, run: () => Promise<unknown>) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const start = performance.now();
  const result = await run();
  const ms = performance.now() - start;
  // One more turn of the loop, so a delay that ends with the request is counted.
  await new Promise((resolve) => setTimeout(resolve, 20));
  h.disable();
  console.log(`${name.padEnd(60)} total ${ms.toFixed(0).padStart(6)} ms  max loop delay ${(h.max / 1e6).toFixed(1).padStart(7)} ms  -> ${JSON.stringify(result).slice(0, 80)}`);
}
const status = async (answer: Promise<ApiResult>) => {
  const { status: code, body } = await answer;
  return [code, body.code ?? body.result];
};
await measure('message: 160 KB of spaces then x', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: ' '.repeat(160_000) + 'x' })));
await measure('message: 1 MB of spaces then x', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: ' '.repeat(1_000_000) + 'x' })));
await measure('flags: 100k ids', () => status(realm.as('mark').post('/messages/flags', { op: 'add', flag: 'read', messages: Array.from({ length: 100_000 }, (_, i) => i + 1) })));
await measure('flags: 5000 ids', () => status(realm.as('mark').post('/messages/flags', { op: 'add', flag: 'read', messages: Array.from({ length: 5000 }, (_, i) => i + 1) })));
await measure('anonymous 30 MB body', async () => {
  const r = await realm.engine.handle(new Request('http://zulip.test/api/v1/messages', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a='.concat('x'.repeat(30 * 1024 * 1024)) }));
  return r.status;
});
await measure('1M unknown params (authenticated)', async () => {
  const body = Array.from({ length: 1_000_000 }, (_, i) => `p${i}=1`).join('&');
  const r = await realm.engine.handle(new Request('http://zulip.test/api/v1/settings', { method: 'PATCH', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa('mark@zulip.test:MarkKey0000000000000000000000004')}` }, body }));
  return r.status;
});
// Catastrophic shapes for a backtracking engine; re2js matches in linear time.
for (const [index, pattern] of ['(?P<id>(a+)+b)', '(?P<id>(a|aa)+c)', '(?P<id>(x+x+)+y)', '(?P<id>([a-z]+)*!)', '(?P<id>(a*)*d)'].entries()) {
  const added = await realm.as('olivia').post('/realm/filters', { pattern, url_template: `https://example.com/${index}/{id}` });
  if (added.status !== 200) throw new Error(`linkifier ${pattern}: ${JSON.stringify(added.body)}`);
}
await measure('10,000-char message with 5 catastrophic linkifiers', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'a'.repeat(9000) + ' ' + 'x'.repeat(999) })));
await measure('10,000-char markdown message', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: '**b** _i_ `c` [l](http://x.test) @**Mark Member** #**general** :smile: '.repeat(120).slice(0, 9990) })));
// Long words are the slowest shape for highlight.js's grammars: five 2,000-character blocks, of which only the colouring budget (2,000 characters) is coloured.
await measure('10,000-char message of five code blocks, each one long word', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: Array.from({ length: 5 }, () => '```ts\n' + 'aZ'.repeat(990) + '\n```').join('\n') })));
// Domains without a scheme are found by scanning runs of domain characters: a long run with no top-level domain, and many short ones.
await measure('10,000-char message of dotted words with no domain', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'a.'.repeat(4995) })));
await measure('10,000-char message of 2,000 short domains', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: ' a.co'.repeat(2000) })));
// Domains whose end is decided by what follows them, with no space in the whole message: each is read to its deciding character only.
await measure('10,000-char message of 1,666 domains between parentheses, no space', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: '(a.co('.repeat(1666) })));
await measure('10,000-char message of one 2,500-label domain', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'com.'.repeat(2499) + 'x"' })));
// A URL with its scheme is checked to the next space for what follows it: many of them joined, none linked.
await measure('10,000-char message of 1,250 schemes joined, no space', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'https://'.repeat(1250) })));
// Many addresses, each followed by a path and none linked: where each text piece may end is searched for again and again.
await measure('10,000-char message of 1,600 addresses with paths, no space', () => status(realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'a@b.c/'.repeat(1600) })));
await measure('narrow with 100 terms', () => status(realm.as('mark').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ operator: 'search', operand: 'word' + i }))) })));
await measure('register (all sections)', () => status(realm.as('mark').post('/register', {})));
realm.engine.close();
