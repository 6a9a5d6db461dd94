import type { Browser, Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, goTo, launchBrowser, logInAs, MARCUS, messageElement, newProfile, OLIVIA, openChat, WAIT_MS } from './chat-browser.ts';

// Two tabs of one browser: Olivia (owner) with Marcus's card open, Marcus in his Settings.
let browser: Browser;
let olivia: Page;
let marcus: Page;
let card: Locator;
const MARCUS_ID = 9;
const ids: Record<string, number> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  const profile = await newProfile(browser);
  olivia = await openChat(profile);
  await logInAs(olivia, 'Olivia Park');
  for (const field of [
    { name: 'Team', field_type: 3, field_data: { platform: { text: 'Platform', order: '1' }, design: { text: 'Design', order: '2' } } },
    { name: 'Pronouns', hint: 'How others refer to you', field_type: 8 },
    { name: 'Website', field_type: 5 },
  ]) {
    const answer = await api(olivia, OLIVIA, 'POST', '/realm/profile_fields', field);
    expect(answer.result).toBe('success');
    ids[field.name] = answer.id as number;
  }
  await goTo(olivia, '#narrow/channel/2-general/topic/profiles');
  const sent = await api(olivia, MARCUS, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'profiles', content: 'New team page is up.' });
  await messageElement(olivia, sent.id).getByRole('button', { name: 'Marcus Reed', exact: true }).click();
  card = olivia.getByRole('dialog', { name: 'Marcus Reed' });
  await card.waitFor();

  marcus = await openChat(profile);
  await logInAs(marcus, 'Marcus Reed');
  await marcus.getByRole('button', { name: 'Menu for Marcus Reed' }).click();
  await marcus.getByRole('menuitem', { name: 'Settings', exact: true }).click();
});
afterAll(async () => {
  await browser.close();
});

/** The card's entries named after the realm's fields, in the card's order, as [name, shown text]. */
async function profileEntries(): Promise<[string, string][]> {
  await olivia.bringToFront();
  return card.locator('dl').evaluate(
    (list, names) =>
      [...list.querySelectorAll('dt')].filter((term) => names.includes(term.textContent ?? '')).map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']),
    Object.keys(ids),
  );
}
/** Marcus's values as the server holds them. */
async function valuesOnServer(): Promise<Record<string, unknown>> {
  return (await api(olivia, OLIVIA, 'GET', `/users/${MARCUS_ID}`, { include_custom_profile_fields: true })).user.profile_data;
}

describe('custom profile fields', () => {
  test('values set in Settings are the server’s and show at once on the card another person has open, in the realm’s order', async () => {
    expect(await profileEntries()).toEqual([]);
    await marcus.bringToFront();
    await marcus.getByText('How others refer to you', { exact: true }).waitFor();
    const pronouns = marcus.getByRole('textbox', { name: 'Pronouns', exact: true });
    // Typed key by key, the value is saved once, when the field is left: not at each keystroke.
    const saves: string[] = [];
    marcus.on('request', (request) => request.url().includes('/profile_data') && saves.push(request.method()));
    await pronouns.pressSequentially('he/him');
    await pronouns.press('Tab');
    await marcus.getByRole('status').filter({ hasText: 'Saved “Pronouns”.' }).waitFor();
    expect(saves).toEqual(['PATCH']);
    await marcus.getByRole('combobox', { name: 'Team', exact: true }).selectOption({ label: 'Design' });
    await expect.poll(valuesOnServer, { timeout: WAIT_MS }).toEqual({ [ids.Team!]: { value: 'design' }, [ids.Pronouns!]: { value: 'he/him' } });
    await expect.poll(profileEntries, { timeout: WAIT_MS }).toEqual([
      ['Team', 'Design'],
      ['Pronouns', 'he/him'],
    ]);
  });

  test('a refused link is said in the server’s words; a good one is a link on the card', async () => {
    await marcus.bringToFront();
    const website = marcus.getByRole('textbox', { name: 'Website', exact: true });
    await website.fill('not a link');
    await website.press('Enter');
    await marcus.getByRole('alert').filter({ hasText: 'Could not save “Website”: Website is not a URL' }).waitFor();
    await website.fill('https://marcus.example/');
    await website.press('Enter');
    await expect.poll(profileEntries, { timeout: WAIT_MS }).toEqual([
      ['Team', 'Design'],
      ['Pronouns', 'he/him'],
      ['Website', 'https://marcus.example/'],
    ]);
    const link = card.getByRole('link', { name: 'https://marcus.example/', exact: true });
    expect(await link.evaluate((a: HTMLAnchorElement) => [a.href, a.target, a.rel])).toEqual(['https://marcus.example/', '_blank', 'noopener noreferrer']);
  });

  test('values cleared in Settings leave the server and the open card', async () => {
    await marcus.bringToFront();
    const pronouns = marcus.getByRole('textbox', { name: 'Pronouns', exact: true });
    await pronouns.fill('');
    await pronouns.press('Tab');
    await marcus.getByRole('combobox', { name: 'Team', exact: true }).selectOption({ label: '(not set)' });
    await expect.poll(valuesOnServer, { timeout: WAIT_MS }).toEqual({ [ids.Website!]: { value: 'https://marcus.example/' } });
    await expect.poll(profileEntries, { timeout: WAIT_MS }).toEqual([['Website', 'https://marcus.example/']]);
    await expect(pronouns.inputValue()).resolves.toBe('');
  });
});
