import { describe, expect, it } from 'vitest';
import type { MarkdownRealm, MentionableUser } from '../../src/engine/markdown/markdown-realm.ts';
import { renderMessage } from '../../src/engine/markdown/render-message.ts';

const users: MentionableUser[] = [
  { id: 31, full_name: 'King Hamlet', email: 'hamlet@lakeside.test', is_active: true },
  { id: 32, full_name: 'Iago', email: 'iago@lakeside.test', is_active: true },
  { id: 33, full_name: 'Old Timer', email: 'old@lakeside.test', is_active: false },
  { id: 34, full_name: 'Sam', email: 'sam1@lakeside.test', is_active: true },
  { id: 35, full_name: 'Sam', email: 'sam2@lakeside.test', is_active: true },
];
const channels = [
  { id: 1, name: 'Denmark' },
  { id: 2, name: 'social life' },
];

const realm: MarkdownRealm = {
  host: 'lakeside.test',
  usersByName: (name) => users.filter((user) => user.full_name.toLowerCase() === name.toLowerCase()),
  userById: (id) => users.find((user) => user.id === id),
  groupByName: (name) => (name === 'support' ? { id: 7, name: 'support' } : undefined),
  channelByName: (name) => channels.find((channel) => channel.name === name),
  realmEmoji: (name) =>
    name === 'green_tick' ? { id: '1', name: 'green_tick', source_url: '/user_avatars/2/emoji/images/1.png' } : undefined,
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' }],
};

const html = (content: string): string => renderMessage(content, realm).html;

describe('basic Markdown', () => {
  it('wraps text in a paragraph', () => {
    expect(html('test_input')).toBe('<p>test_input</p>');
  });

  it('renders nothing for empty content', () => {
    expect(html('')).toBe('');
  });

  it('turns a single newline into a line break', () => {
    expect(html('test\nbar')).toBe('<p>test<br>\nbar</p>');
  });

  it('separates paragraphs with a newline and no trailing newline', () => {
    expect(html('one\n\ntwo')).toBe('<p>one</p>\n<p>two</p>');
  });

  it('emphasizes with asterisks and strikes through with double tildes', () => {
    expect(html('*em* **strong** ***both*** ~~gone~~')).toBe(
      '<p><em>em</em> <strong>strong</strong> <strong><em>both</em></strong> <del>gone</del></p>',
    );
  });

  it('never emphasizes across a line end, as upstream', () => {
    expect(html('**bold until\nhere**')).toBe('<p>**bold until<br>\nhere**</p>');
  });

  it('leaves underscores and single tildes alone', () => {
    expect(html('_foo_ __bar__ snake_case_name ~x~')).toBe('<p>_foo_ __bar__ snake_case_name ~x~</p>');
  });

  it('does not read asterisks in code-like text as emphasis', () => {
    expect(html('const char *x = (char *)y')).toBe('<p>const char *x = (char *)y</p>');
  });

  it('renders hash headings but not setext headings', () => {
    expect(html('# Hello world')).toBe('<h1>Hello world</h1>');
    expect(html('#Hello world')).toBe('<p>#Hello world</p>');
    expect(html('Title\n===')).toBe('<p>Title<br>\n===</p>');
  });

  it('does not resolve reference-style links', () => {
    expect(html('Hello [world]\n\n[world]: https://google.com')).toBe(
      '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>',
    );
  });

  it('renders bulleted and numbered lists', () => {
    expect(html('Some text:\n* One\n* Two')).toBe('<p>Some text:</p>\n<ul>\n<li>One</li>\n<li>Two</li>\n</ul>');
    expect(html('3. A\n4. B')).toBe('<ol start="3">\n<li>A</li>\n<li>B</li>\n</ol>');
  });

  it('nests a list by two spaces under any item, as upstream: bullets under a number, numbers from any start', () => {
    expect(html('1. A\n  - b\n2. C')).toBe('<ol>\n<li>A<ul>\n<li>b</li>\n</ul>\n</li>\n<li>C</li>\n</ol>');
    expect(html('1. level-1\n  2. level-2\n    3. level-3\n  2. level-2a\n2. level-1a')).toBe(
      '<ol>\n<li>level-1<ol start="2">\n<li>level-2<ol start="3">\n<li>level-3</li>\n</ol>\n</li>\n<li>level-2a</li>\n</ol>\n</li>\n<li>level-1a</li>\n</ol>',
    );
  });

  it('keeps one list when its bullets change, as upstream', () => {
    expect(html('* One\n- Two\n+ Three')).toBe('<ul>\n<li>One</li>\n<li>Two</li>\n<li>Three</li>\n</ul>');
  });

  it('leaves list lines inside a code block as typed, and text back at the margin ends the list', () => {
    expect(html('1. A\n```\n1. a\n  - b\n```')).toBe(
      '<ol>\n<li>A</li>\n</ol>\n<div class="codehilite"><pre><span></span><code>1. a\n  - b\n</code></pre></div>',
    );
    expect(html('* a\n\nafter\n  * b')).toBe('<ul>\n<li>a</li>\n</ul>\n<p>after</p>\n<ul>\n<li>b</li>\n</ul>');
  });

  it('puts the paragraphs of a loose list item on their own lines', () => {
    expect(html('* Alpha\n\n* Beta')).toBe('<ul>\n<li>\n<p>Alpha</p>\n</li>\n<li>\n<p>Beta</p>\n</li>\n</ul>');
  });

  it('leaves task-list boxes as typed', () => {
    expect(html('- [ ] todo')).toBe('<ul>\n<li>[ ] todo</li>\n</ul>');
  });

  it('renders tables with one row per line', () => {
    expect(html('a | b\n:- | -:\n1 | 2')).toBe(
      '<table>\n<thead>\n<tr>\n<th style="text-align: left;">a</th>\n<th style="text-align: right;">b</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td style="text-align: left;">1</td>\n<td style="text-align: right;">2</td>\n</tr>\n</tbody>\n</table>',
    );
  });

  it('renders quotes as blockquotes, ended by a blank line', () => {
    expect(html('> Hello World!\n\n> Hello Universe!')).toBe(
      '<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>',
    );
  });

  it('shows the last quote marker with nothing after it as text, as upstream does, instead of an empty quote', () => {
    expect(html('>')).toBe('<p>&gt;</p>');
    expect(html('>>>')).toBe('<blockquote>\n<blockquote>\n<p>&gt;</p>\n</blockquote>\n</blockquote>');
    expect(html('- >')).toBe('<ul>\n<li>&gt;</li>\n</ul>');
    expect(html('> hi\n\n>')).toBe('<blockquote>\n<p>hi</p>\n</blockquote>\n<p>&gt;</p>');
  });

  it('puts a line right under empty quote lines inside the quote, and leaves an empty quote fence empty', () => {
    expect(html('>\n>\ntext')).toBe('<blockquote>\n<p>text</p>\n</blockquote>');
    expect(html('>\n\ntext')).toBe('<p>&gt;</p>\n<p>text</p>');
    expect(html('```quote\n```')).toBe('<blockquote>\n</blockquote>');
  });

  it('keeps the spaces inside a code span and escapes everything in it', () => {
    expect(html('` outer ` `<&nbsp;>`')).toBe('<p><code> outer </code> <code>&lt;&amp;nbsp;&gt;</code></p>');
  });

  it('keeps entities typed in text, and quotes unescaped', () => {
    expect(html(`& &amp; it's "quoted"`)).toBe(`<p>&amp; &amp; it's "quoted"</p>`);
  });
});

describe('raw HTML and unsafe links', () => {
  it('escapes a script tag instead of passing it through', () => {
    expect(html('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  it('escapes HTML inside emphasis', () => {
    expect(html('**<h1>Hello world</h1>**')).toBe('<p><strong>&lt;h1&gt;Hello world&lt;/h1&gt;</strong></p>');
  });

  it('escapes an image tag with an event handler', () => {
    expect(html('<img src=x onerror=alert(1)>')).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>');
  });

  it('escapes HTML inside code spans and code blocks', () => {
    expect(html('`<b>bold</b>`')).toBe('<p><code>&lt;b&gt;bold&lt;/b&gt;</code></p>');
    expect(html('~~~\n<h1>stay normal</h1>\n~~~')).toBe(
      '<div class="codehilite"><pre><span></span><code>&lt;h1&gt;stay normal&lt;/h1&gt;\n</code></pre></div>',
    );
  });

  it('leaves a javascript: link as text', () => {
    expect(html('[x](javascript:alert(1))')).toBe('<p>[x](javascript:alert(1))</p>');
    expect(html('[x](JavaScript:alert(1))')).toBe('<p>[x](JavaScript:alert(1))</p>');
  });

  it('leaves data: and vbscript: links as text', () => {
    expect(html('[x](data:text/html,hi) [y](vbscript:msgbox)')).toBe('<p>[x](data:text/html,hi) [y](vbscript:msgbox)</p>');
  });

  it('leaves a link with an unknown scheme as text', () => {
    expect(html('1 [](foo://) 3')).toBe('<p>1 [](foo://) 3</p>');
  });

  it('escapes quotes in a link title so they cannot add attributes', () => {
    expect(html('[ok](https://a.example "t\\" onclick=\\"alert(1)")')).toBe(
      '<p><a href="https://a.example" title="t&quot; onclick=&quot;alert(1)">ok</a></p>',
    );
  });

  it('escapes an entity in a link target instead of letting it spell a scheme', () => {
    expect(html('[x](javascript&#58;alert(1))')).toBe('<p><a href="http://javascript&amp;#58;alert(1)">x</a></p>');
  });
});

describe('links', () => {
  it('renders a Markdown link', () => {
    expect(html('[hello](https://github.com)')).toBe('<p><a href="https://github.com">hello</a></p>');
  });

  it('shows the target of a link with no text', () => {
    expect(html('[](https://github.com)')).toBe('<p><a href="https://github.com">https://github.com</a></p>');
  });

  it('autolinks bare URLs, www addresses and email addresses', () => {
    expect(html('see https://github.com/zulip and www.zulip.com/foo or a@b.com')).toBe(
      '<p>see <a href="https://github.com/zulip">https://github.com/zulip</a> and ' +
        '<a href="http://www.zulip.com/foo">www.zulip.com/foo</a> or <a href="mailto:a@b.com">a@b.com</a></p>',
    );
  });

  it('links a domain typed without a scheme as upstream: a top-level domain at its end, a path with paired parentheses, closing punctuation left out', () => {
    expect(html('see zulip.com/help? and ucl.ac.uk. or zulip.us/(a_(b)c)_d')).toBe(
      '<p>see <a href="http://zulip.com/help">zulip.com/help</a>? and <a href="http://ucl.ac.uk">ucl.ac.uk</a>. or ' +
        '<a href="http://zulip.us/(a_(b)c)_d">zulip.us/(a_(b)c)_d</a></p>',
    );
  });

  it('finds every domain of a text whose pieces are cut around emphasis, inside it and after it', () => {
    expect(html(`${'*a* '.repeat(3)}a.co *in b.co* c.co`)).toBe(
      '<p><em>a</em> <em>a</em> <em>a</em> <a href="http://a.co">a.co</a> <em>in <a href="http://b.co">b.co</a></em> <a href="http://c.co">c.co</a></p>',
    );
    expect(html('a.co/x(y), (b.co/z)) c.co/"d" e.co')).toBe(
      '<p><a href="http://a.co/x(y)">a.co/x(y)</a>, (<a href="http://b.co/z">b.co/z</a>)) c.co/"d" <a href="http://e.co">e.co</a></p>',
    );
  });

  it('leaves a file name, a domain joined to the word before and one followed by more word as text', () => {
    expect(html("readme.md x=foo.com foo.com's")).toBe("<p>readme.md x=foo.com foo.com's</p>");
  });

  it('links a URL with its scheme only where upstream does: set apart before, and nothing but closing punctuation after', () => {
    expect(html('<script src=http://xx.com/xss.js<b>')).toBe('<p>&lt;script src=http://xx.com/xss.js&lt;b&gt;</p>');
    expect(html('"http://xx.com/a.js"<b> ahttps://a.com https://a.com,b')).toBe('<p>"http://xx.com/a.js"&lt;b&gt; ahttps://a.com https://a.com,b</p>');
    expect(html('(see https://a.com/x_(y).) text:https://a.com')).toBe(
      '<p>(see <a href="https://a.com/x_(y)">https://a.com/x_(y)</a>.) text:<a href="https://a.com">https://a.com</a></p>',
    );
  });

  it('links an email address only where upstream does: set apart before, with no path after', () => {
    expect(html('a@b.com/foo x=a@b.com a@b.com,c')).toBe('<p>a@b.com/foo x=a@b.com a@b.com,c</p>');
    expect(html('(mail a.b-c@d.co.uk.)')).toBe('<p>(mail <a href="mailto:a.b-c@d.co.uk">a.b-c@d.co.uk</a>.)</p>');
  });

  it('drops the spaces that begin a paragraph', () => {
    expect(html('  two spaces')).toBe('<p>two spaces</p>');
  });

  it('keeps angle brackets around an autolinked address as text', () => {
    expect(html('<a@b.com>')).toBe('<p>&lt;<a href="mailto:a@b.com">a@b.com</a>&gt;</p>');
  });

  it('makes links to narrows and uploads on the realm itself relative', () => {
    expect(html('[foo](http://lakeside.test/#narrow/channel/1-Denmark)')).toBe(
      '<p><a href="#narrow/channel/1-Denmark">foo</a></p>',
    );
    expect(html('[f.txt](https://lakeside.test/user_uploads/2/ce/x/f.txt)')).toBe(
      '<p><a href="user_uploads/2/ce/x/f.txt">f.txt</a></p>',
    );
  });

  it('keeps other links to the realm absolute', () => {
    expect(html('[foo](http://lakeside.test/https://example.com)')).toBe(
      '<p><a href="http://lakeside.test/https://example.com">foo</a></p>',
    );
  });

  it('reads image syntax as an exclamation mark and a link', () => {
    expect(html('![logo](https://e.example/logo.png)')).toBe('<p>!<a href="https://e.example/logo.png">logo</a></p>');
  });

  it('allows phone and SMS links', () => {
    expect(html('[call me](tel:+14155551234)')).toBe('<p><a href="tel:+14155551234">call me</a></p>');
  });

  it('reports links, images and attachments', () => {
    const plain = renderMessage('no links here', realm);
    expect([plain.hasLink, plain.hasImage, plain.hasAttachment]).toEqual([false, false, false]);
    const link = renderMessage('https://example.com/page', realm);
    expect([link.hasLink, link.hasImage, link.hasAttachment]).toEqual([true, false, false]);
    const image = renderMessage('look https://example.com/cat.JPG?size=2', realm);
    expect([image.hasLink, image.hasImage, image.hasAttachment]).toEqual([true, true, false]);
    const upload = renderMessage('[report.pdf](/user_uploads/2/ab/cd/report.pdf)', realm);
    expect([upload.hasLink, upload.hasImage, upload.hasAttachment]).toEqual([true, false, true]);
  });
});

describe('user mentions', () => {
  it('mentions a user by full name', () => {
    const rendered = renderMessage('Hi @**King Hamlet**', realm);
    expect(rendered.html).toBe('<p>Hi <span class="user-mention" data-user-id="31">@King Hamlet</span></p>');
    expect(rendered.mentionedUserIds).toEqual([31]);
  });

  it('matches the name case-insensitively and shows the real name', () => {
    expect(html('@**king hamlet**')).toBe('<p><span class="user-mention" data-user-id="31">@King Hamlet</span></p>');
  });

  it('mentions a user by name and id, or by id alone', () => {
    const rendered = renderMessage('@**Sam|35** @**|32**', realm);
    expect(rendered.html).toBe(
      '<p><span class="user-mention" data-user-id="35">@Sam</span> <span class="user-mention" data-user-id="32">@Iago</span></p>',
    );
    expect(rendered.mentionedUserIds).toEqual([35, 32]);
  });

  it('refuses a name and id that belong to different users', () => {
    expect(html('@**Iago|31**')).toBe('<p>@<strong>Iago|31</strong></p>');
  });

  it('leaves an ambiguous name without an id unmentioned', () => {
    const rendered = renderMessage('@**Sam**', realm);
    expect(rendered.html).toBe('<p>@<strong>Sam</strong></p>');
    expect(rendered.mentionedUserIds).toEqual([]);
  });

  it('leaves an unknown name unmentioned', () => {
    expect(html('Hey @**Nonexistent User**')).toBe('<p>Hey @<strong>Nonexistent User</strong></p>');
  });

  it('renders a silent mention without the @ and without notifying', () => {
    const rendered = renderMessage('@_**Iago**', realm);
    expect(rendered.html).toBe('<p><span class="user-mention silent" data-user-id="32">Iago</span></p>');
    expect(rendered.mentionedUserIds).toEqual([]);
  });

  it('makes mentions of deactivated users silent', () => {
    const rendered = renderMessage('@**Old Timer**', realm);
    expect(rendered.html).toBe('<p><span class="user-mention silent" data-user-id="33">Old Timer</span></p>');
    expect(rendered.mentionedUserIds).toEqual([]);
  });

  it('makes mentions inside quotes silent', () => {
    const rendered = renderMessage('> @**Iago** said\n\n```quote\n@**King Hamlet**\n```', realm);
    expect(rendered.html).toBe(
      '<blockquote>\n<p><span class="user-mention silent" data-user-id="32">Iago</span> said</p>\n</blockquote>\n' +
        '<blockquote>\n<p><span class="user-mention silent" data-user-id="31">King Hamlet</span></p>\n</blockquote>',
    );
    expect(rendered.mentionedUserIds).toEqual([]);
  });

  it('does not read a mention glued to a word', () => {
    expect(html('email@**Iago**')).toBe('<p>email@<strong>Iago</strong></p>');
  });

  it('renders the channel wildcards and flags them', () => {
    for (const wildcard of ['all', 'everyone', 'channel', 'stream']) {
      const rendered = renderMessage(`@**${wildcard}**`, realm);
      expect(rendered.html).toBe(
        `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${wildcard}</span></p>`,
      );
      expect(rendered.streamWildcard).toBe(true);
      expect(rendered.topicWildcard).toBe(false);
    }
  });

  it('renders the topic wildcard and flags it', () => {
    const rendered = renderMessage('@**topic**', realm);
    expect(rendered.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(rendered.topicWildcard).toBe(true);
    expect(rendered.streamWildcard).toBe(false);
  });

  it('does not flag a quoted wildcard', () => {
    const rendered = renderMessage('> @**all**', realm);
    expect(rendered.html).toBe(
      '<blockquote>\n<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>\n</blockquote>',
    );
    expect(rendered.streamWildcard).toBe(false);
  });

  it('does not mention anyone from inside a code span or code block', () => {
    const rendered = renderMessage('`@**Iago**`\n\n```\n@**Iago**\n```', realm);
    expect(rendered.html).toBe(
      '<p><code>@**Iago**</code></p>\n<div class="codehilite"><pre><span></span><code>@**Iago**\n</code></pre></div>',
    );
    expect(rendered.mentionedUserIds).toEqual([]);
  });
});

describe('group mentions', () => {
  it('mentions a group', () => {
    const rendered = renderMessage('@*support* please', realm);
    expect(rendered.html).toBe('<p><span class="user-group-mention" data-user-group-id="7">@support</span> please</p>');
    expect(rendered.mentionedGroupIds).toEqual([7]);
  });

  it('renders a silent group mention without notifying', () => {
    const rendered = renderMessage('@_*support*', realm);
    expect(rendered.html).toBe('<p><span class="user-group-mention silent" data-user-group-id="7">support</span></p>');
    expect(rendered.mentionedGroupIds).toEqual([]);
  });

  it('leaves an unknown group as emphasis', () => {
    expect(html('@*nobody*')).toBe('<p>@<em>nobody</em></p>');
  });
});

describe('channel and topic links', () => {
  it('links a channel', () => {
    expect(html('#**Denmark**')).toBe(
      '<p><a class="stream" data-stream-id="1" href="/#narrow/channel/1-Denmark">#Denmark</a></p>',
    );
  });

  it('links a topic, hash-encoding its name', () => {
    expect(html('#**Denmark>some topic**')).toBe(
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/some.20topic">#Denmark &gt; some topic</a></p>',
    );
  });

  it('encodes dots and brackets and turns spaces in the channel slug into dashes', () => {
    expect(html('#**social life>v1.2 (beta)**')).toBe(
      '<p><a class="stream-topic" data-stream-id="2" href="/#narrow/channel/2-social-life/topic/v1.2E2.20.28beta.29">#social life &gt; v1.2 (beta)</a></p>',
    );
  });

  it('links a message', () => {
    expect(html('#**Denmark>some topic@123**')).toBe(
      '<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic/some.20topic/near/123">#Denmark &gt; some topic @ 💬</a></p>',
    );
  });

  it('leaves an unknown channel unlinked', () => {
    expect(html('There #**Nonexistent**')).toBe('<p>There #<strong>Nonexistent</strong></p>');
  });
});

describe('emoji', () => {
  it('renders a unicode emoji by name', () => {
    expect(html(':+1:')).toBe(
      '<p><span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>',
    );
  });

  it('titles an emoji by the alias used, with underscores as spaces', () => {
    expect(html(':thumbsup: :christmas_tree:')).toBe(
      '<p><span aria-label="thumbsup" class="emoji emoji-1f44d" role="img" title="thumbsup">:thumbsup:</span> ' +
        '<span aria-label="christmas tree" class="emoji emoji-1f384" role="img" title="christmas tree">:christmas_tree:</span></p>',
    );
  });

  it('renders emoji written without spaces between them', () => {
    expect(html(':cat:hello:dog:')).toBe(
      '<p><span aria-label="cat" class="emoji emoji-1f431" role="img" title="cat">:cat:</span>hello' +
        '<span aria-label="dog" class="emoji emoji-1f436" role="img" title="dog">:dog:</span></p>',
    );
  });

  it('renders a realm emoji as an image', () => {
    expect(html(':green_tick:')).toBe(
      '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"></p>',
    );
  });

  it('renders the zulip emoji as its image', () => {
    expect(html(':zulip:')).toBe(
      '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>',
    );
  });

  it('leaves unknown names and skin tones as typed', () => {
    expect(html(':not_an_emoji: x::y :skin-tone-2:')).toBe('<p>:not_an_emoji: x::y :skin-tone-2:</p>');
  });

  it('wraps unicode emoji characters, naming them canonically', () => {
    expect(html('Extra\u{1f47d}Terrestrial \u{1f937}\u200d\u2640\ufe0f #\ufe0f\u20e3')).toBe(
      '<p>Extra<span aria-label="alien" class="emoji emoji-1f47d" role="img" title="alien">:alien:</span>Terrestrial ' +
        '<span aria-label="woman-shrugging" class="emoji emoji-1f937-200d-2640" role="img" title="woman-shrugging">:woman-shrugging:</span> ' +
        '<span aria-label="hash" class="emoji emoji-0023-20e3" role="img" title="hash">:hash:</span></p>',
    );
  });

  it('leaves a joined sequence it does not know as typed, instead of wrapping its pieces', () => {
    expect(html('purple lemon? \u{1f34b}\u200d\u{1f7ea} lemon \u{1f34b}')).toBe(
      '<p>purple lemon? \u{1f34b}\u200d\u{1f7ea} lemon <span aria-label="lemon" class="emoji emoji-1f34b" role="img" title="lemon">:lemon:</span></p>',
    );
  });

  it("reads a fence's language name as a name, even one an object has built in", () => {
    const fenced = '<div class="codehilite" data-code-language="constructor"><pre><span></span><code>x\n</code></pre></div>';
    expect(html('```constructor\nx\n```')).toBe(fenced);
    expect(renderMessage('```\nx\n```', { ...realm, defaultCodeBlockLanguage: 'constructor' }).html).toBe(fenced);
  });

  it('leaves emoji syntax inside code alone', () => {
    expect(html('`:cat:`')).toBe('<p><code>:cat:</code></p>');
  });
});

describe('code blocks', () => {
  it('renders a fenced block with its language, coloured with Pygments\' token classes as upstream\'s', () => {
    expect(html('Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1   \n~~~~')).toBe(
      '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>' +
        '<span class="k">def</span> <span class="nf">speak</span>(self):\n    x = <span class="m">1</span>\n</code></pre></div>',
    );
  });

  it('closes each coloured run at a line end, as Pygments does, and escapes the code inside it', () => {
    expect(html('```js\n/* a < b\n   && c */\nf("<i>")\n```')).toBe(
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>' +
        '<span class="c">/* a &lt; b</span>\n<span class="c">   &amp;&amp; c */</span>\n<span class="nf">f</span>(<span class="s">&quot;&lt;i&gt;&quot;</span>)\n</code></pre></div>',
    );
  });

  it('colours at most 2,000 characters of code in one message: a block past that stays plain', () => {
    const block = (name: string) => `\`\`\`py\n${name} = 1${' '.repeat(1_200)}# ${'x'.repeat(20)}\n\`\`\``;
    const rendered = html(`${block('first')}\n\n${block('second')}`);
    expect(rendered).toContain('first = <span class="m">1</span>');
    expect(rendered).toContain('second = 1');
    expect(rendered.match(/<span class=/g)).toHaveLength(2);
  });

  it('leaves a fence line with fence characters after its language as text, as upstream', () => {
    expect(html('~~~~xx: yy zz~~~~')).toBe('<p>~~~~xx: yy zz~~~~</p>');
  });

  it('colours a block that names its language on its first line, as upstream, keeping the line and naming no language', () => {
    expect(html('```\n#!/usr/bin/env python\nprint(1)\n```')).toBe(
      '<div class="codehilite"><pre><span></span><code><span class="c">#!/usr/bin/env python</span>\n<span class="nb">print</span>(<span class="m">1</span>)\n</code></pre></div>',
    );
  });

  it('leaves a block without a language uncoloured', () => {
    expect(html('```\ndef f(): return 1\n```')).toBe('<div class="codehilite"><pre><span></span><code>def f(): return 1\n</code></pre></div>');
  });

  it('keeps an unknown language name as written', () => {
    expect(html('``` inventedlanguage\nx\n```')).toBe(
      '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>x\n</code></pre></div>',
    );
  });

  it('escapes quotes in code blocks as Pygments does', () => {
    expect(html('```\necho "hi" \'there\' & <b>\n```')).toBe(
      '<div class="codehilite"><pre><span></span><code>echo &quot;hi&quot; &#39;there&#39; &amp; &lt;b&gt;\n</code></pre></div>',
    );
  });

  it('renders an indented block as code', () => {
    expect(html('    def foo(): pass')).toBe('<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>');
  });

  it('runs an unclosed fence to the end of the message', () => {
    expect(html('~~~\nx = 1')).toBe('<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>');
  });
});

describe('quote, spoiler and math fences', () => {
  it('renders a quote fence as a blockquote of Markdown', () => {
    expect(html('Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~')).toBe(
      '<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>',
    );
  });

  it('keeps a code block inside a quote fence from ending the quote', () => {
    expect(html('```quote\nHe said:\n```py\nx\n```\nend\n```\nafter')).toBe(
      '<blockquote>\n<p>He said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>x\n</code></pre></div>\n<p>end</p>\n</blockquote>\n<p>after</p>',
    );
  });

  it('renders a spoiler with its header', () => {
    expect(html('```spoiler header\ncontent\n```\noutside spoiler\n')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
    );
  });

  it('renders a spoiler without a header', () => {
    expect(html('```spoiler\ncontent\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>',
    );
  });

  it('renders Markdown in a spoiler header and escapes HTML in it', () => {
    expect(html('```spoiler <script>alert(1)</script> **bold**\n<b>hi</b>\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;alert(1)&lt;/script&gt; <strong>bold</strong></p>\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>&lt;b&gt;hi&lt;/b&gt;</p>\n</div></div>',
    );
  });

  it('lays out each paragraph of a math fence as display math, TeX that cannot be read shown as written', () => {
    const rendered = html('```math\n\\text{**a**} < b\n\n\\frac{1}{\n```');
    const [first, second] = rendered.replace(/^<p>|<\/p>$/g, '').split('\n\n');
    expect(first).toMatch(/^<span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML" display="block">/);
    expect(first).toContain('<mtext>**a**</mtext>');
    expect(first).toContain('<annotation encoding="application/x-tex">\\text{**a**} &lt; b</annotation>');
    expect(first).toContain('<span class="katex-html" aria-hidden="true"><span class="base">');
    expect(first).not.toContain('<strong>');
    expect(second).toBe('<span class="tex-error">\\frac{1}{</span>');
    // Upstream's display-math error text escapes quotes, as its inline one does not.
    expect(html("```math\n\\frac{'a'}{\n```")).toBe('<p><span class="tex-error">\\frac{&#x27;a&#x27;}{</span></p>');
  });
});

describe('inline math', () => {
  /** The TeX source KaTeX keeps in its MathML annotation. */
  const annotation = (rendered: string): string | undefined => /<annotation encoding="application\/x-tex">([^<]*)<\/annotation>/.exec(rendered)?.[1];

  it('lays out $$…$$ with KaTeX: its HTML, its MathML and the source', () => {
    const rendered = html('Area: $$\\pi r^2 < 1$$');
    expect(rendered).toMatch(/^<p>Area: <span class="katex"><span class="katex-mathml"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML"><semantics><mrow><mi>π<\/mi>/);
    expect(annotation(rendered)).toBe('\\pi r^2 &lt; 1');
    expect(rendered).toContain('<span class="katex-html" aria-hidden="true"><span class="base"><span class="strut"');
    expect(rendered).toMatch(/<span class="mord mathnormal"[^>]*>π<\/span>/);
    expect(rendered.endsWith('</span></p>')).toBe(true);
  });

  it('shows TeX that KaTeX cannot read as written, dollars included', () => {
    expect(html('see $$\\frac{1}{<b>$$ here')).toBe('<p>see <span class="tex-error">$$\\frac{1}{&lt;b&gt;$$</span> here</p>');
    expect(html('$$\\nosuchcommand$$')).toBe('<p><span class="tex-error">$$\\nosuchcommand$$</span></p>');
  });

  it('makes no link of \\href and clamps sizes a message asks for', () => {
    const link = html('$$\\href{javascript:alert(1)}{x}$$');
    expect(link).not.toMatch(/<a\b|href="/);
    const rule = html('$$\\rule{100000em}{1em}$$');
    expect(rule).toContain('border-right-width:50em;');
    expect(rule).not.toContain('100000em;');
  });

  it('never reads asterisks inside math as emphasis', () => {
    const emphasised = html('*x $$a*b$$*');
    expect(emphasised).toMatch(/^<p><em>x <span class="katex">.*<\/span><\/em><\/p>$/);
    expect(annotation(emphasised)).toBe('a*b');
    expect(annotation(html('$$**a**$$'))).toBe('**a**');
    expect(html('$$**a**$$')).not.toContain('<strong>');
  });

  it('leaves dollar signs that are not math alone', () => {
    expect(html('$$_$$ and $$$ or $$$$! and $foo is$$')).toBe('<p>$$_$$ and $$$ or $$$$! and $foo is$$</p>');
    expect(html('$$x=3\ny=4$$')).toBe('<p>$$x=3<br>\ny=4$$</p>');
  });

  it('leaves math inside a code span alone', () => {
    expect(html('`$$a$$`')).toBe('<p><code>$$a$$</code></p>');
  });
});

describe('global times', () => {
  it('renders an ISO time as UTC', () => {
    expect(html('<time:2024-01-01T10:00:00+01:00>')).toBe(
      '<p><time datetime="2024-01-01T09:00:00Z">2024-01-01T10:00:00+01:00</time></p>',
    );
  });

  it('reads a time without a zone, and a date alone, as UTC', () => {
    expect(html('<time:2017-12-31> <time:2017-06-05 22:30>')).toBe(
      '<p><time datetime="2017-12-31T00:00:00Z">2017-12-31</time> <time datetime="2017-06-05T22:30:00Z">2017-06-05 22:30</time></p>',
    );
  });

  it('reads UNIX seconds', () => {
    expect(html("Let's meet at <time:1496701800>.")).toBe(
      `<p>Let's meet at <time datetime="2017-06-05T22:30:00Z">1496701800</time>.</p>`,
    );
  });

  it('marks an unreadable time as an error, escaped', () => {
    expect(html('<time:**hello world**>')).toBe('<p><span class="timestamp-error">Invalid time format: **hello world**</span></p>');
    expect(html('<time:<alert(1)>>')).toBe('<p><span class="timestamp-error">Invalid time format: &lt;alert(1)</span>&gt;</p>');
    expect(html('<time:2024-02-30>')).toBe('<p><span class="timestamp-error">Invalid time format: 2024-02-30</span></p>');
  });
});

describe('linkifiers in messages', () => {
  it('links matches of a realm linkifier', () => {
    const rendered = renderMessage('see #123 and #45, then **#9**', realm);
    expect(rendered.html).toBe(
      '<p>see <a href="https://trac.example.com/ticket/123">#123</a> and <a href="https://trac.example.com/ticket/45">#45</a>, ' +
        'then <strong><a href="https://trac.example.com/ticket/9">#9</a></strong></p>',
    );
    expect(rendered.hasLink).toBe(true);
  });

  it('does not link a match glued to other text', () => {
    expect(html('x#5 #6a')).toBe('<p>x#5 #6a</p>');
  });

  it('does not link inside code or inside an existing link', () => {
    expect(html('`#8` [#7](https://a.example)')).toBe('<p><code>#8</code> <a href="https://a.example">#7</a></p>');
  });

  it('skips a stored linkifier that does not compile', () => {
    const broken = { ...realm, linkifiers: [{ id: 9, pattern: '(unclosed', url_template: 'https://x.example/' }] };
    expect(renderMessage('(unclosed #1', broken).html).toBe('<p>(unclosed #1</p>');
  });
});

describe('/me messages', () => {
  it('flags content starting with "/me "', () => {
    const rendered = renderMessage('/me waves', realm);
    expect(rendered.isMeMessage).toBe(true);
    expect(rendered.html).toBe('<p>/me waves</p>');
    expect(renderMessage('/meh', realm).isMeMessage).toBe(false);
  });
});

describe('pathological input', () => {
  it('shows absurdly deep nesting as plain text instead of failing', () => {
    const rendered = renderMessage(`${'> '.repeat(5000)}@**Iago** <b>`, realm);
    expect(rendered.html).toBe(`<p>${'&gt; '.repeat(5000)}@**Iago** &lt;b&gt;</p>`);
    expect(rendered.mentionedUserIds).toEqual([]);
  });
});
