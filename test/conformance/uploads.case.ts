import { expect, it } from 'vitest';
import { caseSuite, type UploadFile } from './harness.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const URL_SHAPE = /^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/[^/]+$/;
const SAFE_FILE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
};

export const uploadCases = caseSuite('uploads and attachments', (api) => {
  const upload = async (file: UploadFile) => {
    const answer = await api.as('mark').upload(file);
    expect(answer.status).toBe(200);
    return answer.body.url as string;
  };

  it('uploads a file and serves it at its /user_uploads URL, as a download that cannot run script', async () => {
    const answer = await api.as('mark').upload({ name: 'zulip notes.txt', type: 'text/plain', content: 'zulip!' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'success', msg: '', uri: answer.body.url, url: answer.body.url, filename: 'zulip notes.txt' });
    expect(answer.body.url).toMatch(URL_SHAPE);
    expect(answer.body.url.endsWith('/zulip-notes.txt')).toBe(true);
    const file = await api.as('mark').fetchFile(answer.body.url);
    expect(file.status).toBe(200);
    expect(file.text).toBe('zulip!');
    expect(file.headers).toMatchObject({
      ...SAFE_FILE_HEADERS,
      'content-type': 'text/plain',
      'content-disposition': 'attachment; filename="zulip notes.txt"',
    });
  });

  it('shows an image in place and keeps an HTML file a sandboxed download', async () => {
    const image = await api.as('mark').fetchFile(await upload({ name: 'pic.png', type: 'image/png', content: 'PNG' }));
    expect(image.headers).toMatchObject({ ...SAFE_FILE_HEADERS, 'content-type': 'image/png', 'content-disposition': 'inline; filename="pic.png"' });
    const page = await api.as('mark').fetchFile(await upload({ name: 'page.html', type: 'text/html', content: '<script>alert(1)</script>' }));
    expect(page.headers).toMatchObject({ ...SAFE_FILE_HEADERS, 'content-type': 'text/html', 'content-disposition': 'attachment; filename="page.html"' });
  });

  it('serves the file without credentials (its path is the capability) but not to an authenticated user who may not see it', async () => {
    const url = await upload({ name: 'mine.txt', type: 'text/plain', content: 'mine' });
    const anonymous = await api.anonymous().fetchFile(url);
    expect([anonymous.status, anonymous.text]).toEqual([200, 'mine']);
    const other = await api.as('mia').fetchFile(url);
    expect([other.status, other.body]).toEqual([403, error('You are not authorized to view this file.')]);
    const missing = await api.anonymous().fetchFile('/user_uploads/1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/missing.txt');
    expect(missing.status).toBe(404);
  });

  it('hands out a temporary URL that opens the file without credentials', async () => {
    const url = await upload({ name: 'temp.txt', type: 'text/plain', content: 'for a minute' });
    const answer = await api.as('mark').get(url);
    expect(answer.body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(/^\/user_uploads\/temporary\/[0-9A-F]+\/temp\.txt$/) });
    const file = await api.anonymous().fetchFile(answer.body.url);
    expect([file.status, file.text]).toEqual([200, 'for a minute']);
    const forged = await api.anonymous().fetchFile('/user_uploads/temporary/BADTOKEN/temp.txt');
    expect([forged.status, forged.body]).toEqual([400, error('Invalid token')]);
  });

  it('refuses a request without a file', async () => {
    const answer = await api.as('mark').post('/user_uploads', {});
    expect([answer.status, answer.body]).toEqual([400, error('You must specify a file to upload')]);
  });

  it('opens the file to the readers of a message that links it, with upstream’s inline image preview', async () => {
    const url = await upload({ name: 'scene.png', type: 'image/png', content: 'PNG' });
    expect((await api.as('mia').fetchFile(url)).status).toBe(403);
    const sent = await api.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 'pictures', content: `[scene.png](${url})` });
    expect((await api.as('mia').fetchFile(url)).status).toBe(200);
    const message = (await api.as('mia').get(`/messages/${sent.body.id}`)).body.message;
    expect(message.content).toBe(
      `<p><a href="${url}">scene.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="scene.png"><img src="${url}"></a></div>`,
    );
    const listed = await api.as('mark').get('/attachments');
    expect(listed.body.attachments.find((a: { path_id: string }) => `/user_uploads/${a.path_id}` === url)).toEqual({
      id: expect.any(Number),
      name: 'scene.png',
      path_id: url.slice('/user_uploads/'.length),
      size: 3,
      create_time: expect.any(Number),
      messages: [{ id: sent.body.id, date_sent: message.timestamp * 1000 }],
    });
  });

  it('lists the caller’s uploads with the realm’s space used, and deletes one with its bytes', async () => {
    const url = await upload({ name: 'delete-me.txt', type: 'text/plain', content: 'bye' });
    const before = (await api.as('mark').get('/attachments')).body;
    const row = before.attachments.find((a: { name: string }) => a.name === 'delete-me.txt');
    expect(before.upload_space_used).toBeGreaterThanOrEqual(3);
    expect((await api.as('mia').delete(`/attachments/${row.id}`)).body).toEqual(error('Invalid attachment'));
    expect((await api.as('mark').delete(`/attachments/${row.id}`)).body).toEqual({ result: 'success', msg: '' });
    const after = (await api.as('mark').get('/attachments')).body;
    expect(after.attachments.map((a: { id: number }) => a.id)).not.toContain(row.id);
    expect(after.upload_space_used).toBe(before.upload_space_used - 3);
    expect((await api.anonymous().fetchFile(url)).status).toBe(404);
  });
});
