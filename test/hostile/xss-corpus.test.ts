import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';
import { liveScript, unsafeUrl } from './support/live-script.ts';

/**
 * The XSS corpus: each payload goes in everywhere a user can write text that comes back as HTML
 * or as a link (message content and its edits, topics through linkifiers, user, channel and
 * group names through mentions and channel links, channel and folder descriptions), and every
 * HTML fragment the API returns is parsed by a real HTML parser and checked for live script.
 */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//x.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg/onload=alert(1)>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<style>body{display:none}</style>',
  '<a href="javascript:alert(1)">x</a>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x]( javascript:alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](javascript:alert(1))',
  '[x](https://x.example/" onclick="alert(1))',
  '[x](https://x.example/"><script>alert(1)</script>)',
  '<javascript:alert(1)>',
  '<https://x.example/"onmouseover="alert(1)>',
  'https://x.example/?q="><script>alert(1)</script>',
  '**<script>alert(1)</script>**',
  '> <img src=x onerror=alert(1)>',
  '```\n<script>alert(1)</script>\n```',
  '```spoiler <img src=x onerror=alert(1)>\n<script>alert(1)</script>\n```',
  '```quote\n<iframe src=javascript:alert(1)>\n```',
  '```math\n\\href{javascript:alert(1)}{x}\n```',
  '$$\\href{javascript:alert(1)}{x}</annotation><script>alert(1)</script>$$',
  ':smile" onerror="alert(1):',
  '<time:javascript:alert(1)>',
  '<!--><script>alert(1)</script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '<a href=x>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '/me <img src=x onerror=alert(1)>',
  'go:javascript:alert(1)',
  'go:data:text/html,<script>alert(1)</script>',
  '#123"><script>alert(1)</script>',
  '\u202e<script>alert(1)</script>',
  // Names the name rules let through (no angle brackets), so mentions and channel links render them.
  'x" onmouseover="alert(1)',
  "x' onfocus='alert(1)' autofocus='",
  'x&quot; onclick=&quot;alert(1)',
  'javascript:alert(1)',
  'x` onload=`alert(1)',
] as const;

let realm: TestRealm;
const checked = { fragments: 0, urls: 0 };
const problems: string[] = [];

/** Parses one HTML fragment the API returned and records anything live in it. */
function checkHtml(where: string, html: unknown): void {
  if (typeof html !== 'string') return;
  checked.fragments++;
  for (const live of liveScript(html)) problems.push(`${where}: ${live}\n    in ${html.slice(0, 300)}`);
}

function checkTopicLinks(where: string, links: unknown): void {
  for (const { url } of (links ?? []) as { url: string }[]) {
    checked.urls++;
    const unsafe = unsafeUrl(url);
    if (unsafe) problems.push(`${where}: ${unsafe} in topic_links: ${url}`);
  }
}

/** A unique name for the payload's channel, group or user, within the 60 characters names may have. */
const nameFor = (index: number, payload: string) => `p${index} ${payload}`.slice(0, 60).trim();

beforeAll(async () => {
  realm = await createTestRealm();
  const owner = realm.as('olivia');
  for (const [pattern, url_template] of [
    ['go:(?P<u>[^ ]+)', '{+u}'],
    ['#(?P<id>[0-9]+)', 'https://tracker.example/{id}'],
    ['q:(?P<q>[^ ]+)', 'https://search.example/?q={q}'],
  ]) {
    expect((await owner.post('/realm/filters', { pattern, url_template })).body).toMatchObject({ result: 'success' });
  }
});
afterAll(() => realm.engine.close());

test.each(PAYLOADS.map((payload, index) => [index, payload] as const))('payload %i (%s) comes back as inert HTML everywhere', async (index, payload) => {
  const owner = realm.as('olivia');
  const member = realm.as('mark');
  const name = nameFor(index, payload);
  const where = `payload ${index}`;

  // Names and descriptions, each where the API shows it (refusing a name is fine: it never renders).
  await realm.as('adam').patch(`/users/${IDS.mia}`, { full_name: name });
  const channel = await owner.post('/users/me/subscriptions', { subscriptions: [{ name, description: payload }] });
  const group = await owner.post('/user_groups/create', { name, description: payload, members: [IDS.mark] });
  const folder = await owner.post('/channel_folders/create', { name: `f${index}`, description: payload });
  const channelName = channel.body.result === 'success' ? name : 'general';

  const content = [
    payload,
    `@**${name}** @_**${name}** @*${name}* #**${channelName}** #**${channelName}>${payload.slice(0, 50)}**`,
    `go:${payload.replaceAll(' ', '')} q:${encodeURIComponent(payload)} #${index}`,
  ].join('\n\n');
  const topic = `go:${payload}`.slice(0, 60);
  const sent = await member.post('/messages', { type: 'stream', to: 'general', topic, content });
  expect(sent.body).toMatchObject({ result: 'success' });

  const { body } = await member.get(`/messages/${sent.body.id}`);
  checkHtml(`${where} content`, body.message.content);
  checkTopicLinks(`${where} topic`, body.message.topic_links);
  checkHtml(`${where} render`, (await member.post('/messages/render', { content })).body.rendered);

  // An edit: the new content, the old one and the diff between them in the edit history.
  await member.patch(`/messages/${sent.body.id}`, { content: `${payload} edited ${payload}`, topic: `#${index} ${payload}`.slice(0, 60) });
  const history = (await member.get(`/messages/${sent.body.id}/history`)).body.message_history as Record<string, unknown>[];
  for (const entry of history) for (const key of ['rendered_content', 'prev_rendered_content', 'content_html_diff']) checkHtml(`${where} history ${key}`, entry[key]);
  const edited = (await member.get(`/messages/${sent.body.id}`)).body.message;
  checkHtml(`${where} edited content`, edited.content);
  checkTopicLinks(`${where} edited topic`, edited.topic_links);

  const channels = (await owner.get('/streams')).body.streams as { name: string; rendered_description: string }[];
  checkHtml(`${where} channel description`, channels.find((row) => row.name === name)?.rendered_description);
  const folders = (await owner.get('/channel_folders')).body.channel_folders as { id: number; rendered_description: string }[];
  checkHtml(`${where} folder description`, folders.find((row) => row.id === folder.body.channel_folder_id)?.rendered_description);
  expect([channel.status, group.status, folder.status].every((status) => status < 500)).toBe(true);

  expect(problems).toEqual([]);
});

test('the checker finds live script where there is some, as a browser would parse it', () => {
  expect(liveScript('<p>a <strong>b</strong> <a href="https://x.example/">c</a> <img src="/user_uploads/1/a.png"></p>')).toEqual([]);
  expect(liveScript('<p><img src=x onerror=alert(1)></p>')).toEqual(['an onerror attribute on <img>']);
  expect(liveScript('<a href="java&#x09;script&colon;alert(1)">x</a>')).toEqual(['a javascript: URL in href on <a>: java\tscript:alert(1)']);
  expect(liveScript('<p>x</p><ScRiPt>alert(1)</script>')).toEqual(['a <script> element']);
  expect(liveScript('<iframe srcdoc="x"></iframe>')).toEqual(['a <iframe> element', 'a srcdoc attribute on <iframe>']);
  expect(liveScript('<a href=" data:text/html,x">x</a>')).toEqual(['a data: URL in href on <a>:  data:text/html,x']);
  expect(unsafeUrl('VBScript:msgbox(1)')).toBe('a vbscript: URL');
  expect(unsafeUrl('/#narrow/channel/1-general')).toBeNull();
});

test('the corpus parsed every fragment it meant to', () => {
  if (process.env.HOSTILE_SUMMARY) console.log(`XSS payloads ${PAYLOADS.length}, HTML fragments parsed ${checked.fragments}, topic link URLs checked ${checked.urls}`);
  // Content, render, edited content, history (at least two) and the folder's description per payload.
  expect(checked.fragments).toBeGreaterThanOrEqual(PAYLOADS.length * 6);
  expect(checked.urls).toBeGreaterThan(PAYLOADS.length);
});
