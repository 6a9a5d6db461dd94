import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { commands } from 'vitest/browser';
import { OLIVIA } from './demo-calls.ts';
import { inTab } from './tabs.ts';

const origin = inject('appOrigin');

/** A 1×1 PNG, base64. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

// Uploaded files in the browser host: bytes as Blobs in their own IndexedDB database, served at
// their /user_uploads/ URL by the Service Worker, so an <img> in the page shows them.
describe('uploads in the browser host', () => {
  let profile: string;
  let tab: string;
  beforeAll(async () => {
    profile = await commands.openProfile();
    tab = await commands.openTab(profile, `${origin}/`);
  });
  afterAll(async () => {
    await commands.closeProfile(profile);
  });

  test('an uploaded image is served at its /user_uploads URL through the Service Worker and shows in an <img>', async () => {
    const seen = await inTab(
      tab,
      async ({ auth, png }: { auth: string; png: string }) => {
        const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
        const form = new FormData();
        form.append('filename', new File([bytes], 'pixel.png', { type: 'image/png' }));
        const headers = { Authorization: `Basic ${btoa(auth)}` };
        const uploaded = await (await fetch('/api/v1/user_uploads', { method: 'POST', headers, body: form })).json();
        const image = new Image();
        const loaded = new Promise<void>((resolve, reject) => {
          image.onload = () => resolve();
          image.onerror = () => reject(new Error('the image did not load'));
        });
        // No credentials: an <img> cannot send the tab's Basic auth; the path is the capability.
        image.src = uploaded.url;
        await loaded;
        const served = await fetch(uploaded.url);
        const stored = await new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('offline-realm-uploads');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const count = open.result.transaction('files').objectStore('files').count();
            count.onsuccess = () => resolve(count.result);
          };
        });
        return {
          url: uploaded.url as string,
          width: image.naturalWidth,
          status: served.status,
          type: served.headers.get('content-type'),
          controlled: navigator.serviceWorker.controller !== null,
          stored,
        };
      },
      { auth: OLIVIA, png: PIXEL_PNG },
    );
    expect(seen).toEqual({
      url: expect.stringMatching(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/pixel\.png$/),
      width: 1,
      status: 200,
      type: 'image/png',
      controlled: true,
      stored: 1,
    });
  });
});
