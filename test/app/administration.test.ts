import type { Browser, BrowserContext, Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, launchBrowser, logInAs, logOut, messageAction, newProfile, OLIVIA, openChat, waitAppReady, WAIT_MS } from './chat-browser.ts';

const BEN = 17;
const LENA = 14;

let browser: Browser;
let profile: BrowserContext;
let page: Page;
let panel: Locator;
beforeAll(async () => {
  browser = await launchBrowser();
  profile = await newProfile(browser);
  page = await openChat(profile);
  await logInAs(page, 'Olivia Park');
  await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
  await page.getByRole('menuitem', { name: 'Organization administration' }).click();
  panel = page.getByRole('complementary', { name: 'Organization administration' });
});
afterAll(async () => {
  await browser.close();
});

describe('organization administration, as the owner', () => {
  test('organization settings are saved on the server as they change: read receipts on (and a message then shows who read it), who may resolve topics, the default language of code blocks', async () => {
    const settings = panel.locator('section', { has: page.getByRole('heading', { name: 'Organization settings' }) });
    const receipts = settings.getByRole('checkbox', { name: 'Read receipts (who has read a message)' });
    await expect(receipts.isChecked()).resolves.toBe(false);
    await receipts.check();
    const realmState = async () => (await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['realm'] })) as Record<string, unknown>;
    await expect.poll(async () => (await realmState()).realm_enable_read_receipts, { timeout: WAIT_MS }).toBe(true);
    await expect(receipts.isChecked()).resolves.toBe(true);

    const resolvers = settings.getByRole('combobox', { name: 'Who can resolve topics' });
    await resolvers.selectOption({ label: 'Moderators' });
    const groups = (await api(page, OLIVIA, 'GET', '/user_groups')).user_groups as { id: number; name: string }[];
    const moderators = groups.find((group) => group.name === 'role:moderators')!.id;
    await expect.poll(async () => (await realmState()).realm_can_resolve_topics_group, { timeout: WAIT_MS }).toBe(moderators);

    const codeLanguage = settings.getByRole('combobox', { name: 'Default language for code blocks' });
    await codeLanguage.selectOption({ label: 'Python' });
    await expect.poll(async () => (await realmState()).realm_default_code_block_language, { timeout: WAIT_MS }).toBe('python');

    // Everyone (guests included) is offered only where the server accepts it, as upstream's page offers it.
    const offered = (name: string) => settings.getByRole('combobox', { name }).getByRole('option').allTextContents();
    expect(await offered('Who can resolve topics')).toContain('Everyone');
    for (const name of ['Who can move messages to another channel', 'Who can create public channels', 'Who can create private channels']) {
      expect(await offered(name), name).not.toContain('Everyone');
      expect(await offered(name), name).toContain('Members');
    }

    // With receipts on, a message's menu shows who read it.
    await page.getByRole('button', { name: 'Close panel' }).click();
    const id = (await api(page, OLIVIA, 'GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: 'announcements' }] })).messages[0].id as number;
    const readers = (await api(page, OLIVIA, 'GET', `/messages/${id}/read_receipts`)).user_ids as number[];
    expect(readers.length).toBeGreaterThan(0);
    await page.evaluate((target) => (location.hash = target), `#narrow/channel/1-announcements/near/${id}`);
    await messageAction(page, id, 'More actions');
    await page.getByRole('menuitem', { name: 'View read receipts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Read receipts' });
    await expect.poll(() => dialog.getByRole('listitem').count()).toBe(readers.length);
    await dialog.getByRole('button', { name: /Close/ }).first().click();
    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Organization administration' }).click();
  });

  test('a channel created here appears in the sidebar, and a folder in the folder list with its description rendered', async () => {
    const create = panel.locator('section', { has: page.getByRole('heading', { name: 'Create a channel' }) });
    await create.getByLabel('Channel name').fill('field-trips');
    await create.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('navigation', { name: 'Channels and conversations' }).getByRole('link', { name: /field-trips/ }).waitFor();

    await panel.getByLabel('Folder name').fill('Outdoors');
    await panel.getByLabel('Folder description').fill('Trips, *gear* and **maps**');
    await panel.getByRole('button', { name: 'Create folder' }).click();
    const list = panel.getByRole('list', { name: 'Channel folders' });
    await list.getByText('Outdoors').waitFor();
    // The description as the server renders its Markdown, not its source.
    const outdoors = list.getByRole('listitem').filter({ hasText: 'Outdoors' });
    await expect(outdoors.locator('strong').textContent()).resolves.toBe('maps');
    await expect(outdoors.locator('em').textContent()).resolves.toBe('gear');
    const folders = await api(page, OLIVIA, 'GET', '/channel_folders');
    expect((folders.channel_folders as { name: string }[]).map((folder) => folder.name)).toContain('Outdoors');
  });

  test('an invitation’s recorded mail can be accepted in the app, and the new person logs in by the form', async () => {
    await panel.getByLabel('Email addresses').fill('new.hire@lakeside.test');
    await panel.getByRole('button', { name: 'Send invitation' }).click();
    const accept = panel.getByRole('form', { name: 'Accept the invitation for new.hire@lakeside.test' });
    await accept.waitFor();
    await accept.getByLabel('Full name').fill('New Hire');
    await accept.getByLabel('Password').fill('new-hire-pass');
    await accept.getByRole('button', { name: 'Accept invitation' }).click();
    await panel.getByRole('status').filter({ hasText: 'Account created for new.hire@lakeside.test' }).waitFor();

    const other = await openChat(profile);
    await logOut(other);
    await other.getByLabel('Email').fill('new.hire@lakeside.test');
    await other.getByLabel('Password').fill('new-hire-pass');
    await other.getByRole('button', { name: 'Log in', exact: true }).click();
    await other.getByRole('button', { name: 'Menu for New Hire' }).waitFor();
    await waitAppReady(other);
    await other.close();
  });

  test('a role changed here is the user’s role on the server', async () => {
    await page.bringToFront();
    await panel.getByLabel('Role of Ben Carter').selectOption({ label: 'Moderator' });
    await expect.poll(async () => (await api(page, OLIVIA, 'GET', `/users/${BEN}`)).user.role, { timeout: WAIT_MS }).toBe(300);
  });

  test('deactivating asks first, then the server has the user inactive; reactivating brings them back', async () => {
    await panel.getByRole('button', { name: 'Deactivate Lena Fischer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate Lena Fischer?' });
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(async () => (await api(page, OLIVIA, 'GET', `/users/${LENA}`)).user.is_active, { timeout: WAIT_MS }).toBe(false);

    await panel.getByRole('button', { name: 'Reactivate Lena Fischer' }).click();
    await expect.poll(async () => (await api(page, OLIVIA, 'GET', `/users/${LENA}`)).user.is_active, { timeout: WAIT_MS }).toBe(true);
  });

  test('a linkifier and a custom profile field added here are listed', async () => {
    await panel.getByLabel('Pattern').fill('#(?P<id>[0-9]+)');
    await panel.getByLabel('URL template').fill('https://tracker.lakeside.test/issue/{id}');
    await panel.getByRole('button', { name: 'Add linkifier' }).click();
    await panel.getByRole('list', { name: 'Linkifiers' }).getByText('#(?P<id>[0-9]+)').waitFor();

    await panel.getByLabel('Field label').fill('Favourite trail');
    await panel.getByRole('button', { name: 'Add field' }).click();
    await panel.getByRole('list', { name: 'Custom profile fields' }).getByText('Favourite trail').waitFor();
    const fields = await api(page, OLIVIA, 'GET', '/realm/profile_fields');
    expect((fields.custom_fields as { name: string }[]).map((field) => field.name)).toContain('Favourite trail');
  });

  test('an invite link created here is shown to copy, listed as open, and revoked from the list', async () => {
    await panel.getByRole('button', { name: 'Create invite link' }).click();
    const link = panel.getByRole('textbox', { name: 'Invite link' });
    await expect.poll(() => link.inputValue(), { timeout: WAIT_MS }).toMatch(/\/api\/v1\/sandbox\/invites\/multiuse\/\d+\/accept\?key=[a-z2-7]{24}$/);
    const listed = (await api(page, OLIVIA, 'GET', '/invites')).invites as { is_multiuse: boolean; id: number; link_url?: string }[];
    const created = listed.find((invite) => invite.is_multiuse)!;
    expect(created.link_url).toBe(await link.inputValue());

    await panel.getByRole('list', { name: 'Open invitations' }).getByRole('button', { name: `Revoke invite link ${created.id}` }).click();
    await expect
      .poll(async () => ((await api(page, OLIVIA, 'GET', '/invites')).invites as { is_multiuse: boolean }[]).some((invite) => invite.is_multiuse), { timeout: WAIT_MS })
      .toBe(false);
  });
});

describe('user groups, as the owner', () => {
  test('a group created here gets members added and removed on the server, can be given a permission, and is deactivated once unused', async () => {
    const section = panel.locator('section', { has: page.getByRole('heading', { name: 'User groups' }) });
    await section.getByLabel('Group name').fill('mobile-team');
    await section.getByLabel('Group description').fill('The app people');
    await section.getByRole('button', { name: 'Create group' }).click();
    const row = section.getByRole('list', { name: 'User groups' }).getByRole('listitem').filter({ hasText: '@mobile-team' }).first();
    await row.waitFor();
    const groups = async () => (await api(page, OLIVIA, 'GET', '/user_groups')).user_groups as { id: number; name: string; members: number[]; deactivated: boolean }[];
    const group = async () => (await groups()).find((candidate) => candidate.name === 'mobile-team')!;

    for (const name of ['Marcus Reed', 'Hannah Kim']) {
      await row.getByLabel('Add to mobile-team').selectOption({ label: name });
      await row.getByRole('button', { name: 'Add', exact: true }).click();
      await row.getByRole('list', { name: 'Members of mobile-team' }).getByText(name).waitFor();
    }
    await row.getByRole('button', { name: 'Remove Hannah Kim from mobile-team' }).click();
    await expect.poll(async () => (await group()).members, { timeout: WAIT_MS }).toEqual([9]);

    // Given a permission, it cannot be deactivated (the server says why); taken back, it can.
    const settings = panel.locator('section', { has: page.getByRole('heading', { name: 'Organization settings' }) });
    const resolvers = settings.getByRole('combobox', { name: 'Who can resolve topics' });
    const before = await resolvers.inputValue();
    await resolvers.selectOption({ label: '@mobile-team' });
    const realmState = async () => (await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['realm'] })).realm_can_resolve_topics_group;
    const id = (await group()).id;
    await expect.poll(realmState, { timeout: WAIT_MS }).toBe(id);
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText(/Could not deactivate the group/).waitFor();
    expect((await group()).deactivated).toBe(false);
    await resolvers.selectOption(before);
    await expect.poll(realmState, { timeout: WAIT_MS }).toBe(Number(before));
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await groups()).some((candidate) => candidate.name === 'mobile-team')).toBe(false);
  });
});

describe('a channel’s settings, as the owner', () => {
  test('renamed and described, a subscriber added and removed, then archived: each on the server, the sidebar following', async () => {
    await page.getByRole('button', { name: 'Close panel' }).click().catch(() => undefined);
    const created = await api(page, OLIVIA, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'field-notes' }] });
    expect(created.result).toBe('success');
    const id = ((await api(page, OLIVIA, 'GET', '/get_stream_id', { stream: 'field-notes' })).stream_id) as number;
    await page.evaluate((target) => (location.hash = target), `#narrow/channel/${id}-field-notes`);
    await page.getByRole('button', { name: 'Channel settings' }).click();
    // Its title follows the channel's name.
    const dialog = page.getByRole('dialog', { name: /^#field-(notes|journal) settings$/ });

    await dialog.getByLabel('Channel name').fill('field-journal');
    await dialog.getByLabel('Description').fill('Notes from **the field**');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    const channel = async () => (await api(page, OLIVIA, 'GET', `/streams/${id}`)).stream as { name: string; description: string };
    await expect.poll(channel, { timeout: WAIT_MS }).toMatchObject({ name: 'field-journal', description: 'Notes from **the field**' });
    await page.getByRole('navigation', { name: 'Channels and conversations' }).getByRole('link', { name: /field-journal/ }).waitFor();

    const members = async () => ((await api(page, OLIVIA, 'GET', `/streams/${id}/members`)).subscribers as number[]).sort((a, b) => a - b);
    await dialog.getByLabel('Add a subscriber').selectOption({ label: 'Lena Fischer' });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(members, { timeout: WAIT_MS }).toEqual([8, LENA]);
    await dialog.getByRole('button', { name: 'Unsubscribe Lena Fischer' }).click();
    await expect.poll(members, { timeout: WAIT_MS }).toEqual([8]);
    await expect.poll(() => dialog.getByRole('list', { name: 'Subscribers' }).getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Olivia Park')]);

    await dialog.getByRole('button', { name: 'Archive channel' }).click();
    await page.getByRole('dialog', { name: 'Archive #field-journal?' }).getByRole('button', { name: 'Archive' }).click();
    await expect.poll(async () => (await channel() as unknown as { is_archived: boolean }).is_archived, { timeout: WAIT_MS }).toBe(true);
    await page.getByRole('navigation', { name: 'Channels and conversations' }).getByRole('link', { name: /field-journal/ }).waitFor({ state: 'detached' });
  });
});
