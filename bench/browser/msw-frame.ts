/**
 * The peer of the small-GET figure (msw-frame.html, a frame of the bench page): MSW's browser
 * worker, registered for this frame alone, answering `GET /api/v1/users/me` from a handler in
 * this page, as a project mocking the API with MSW would: with the body the bench page gives it
 * (`fixed`), or from an Engine of this page over the realm's database (`engine`, the work our
 * relay does, as `offline-realm/msw`'s handlers do it).
 */
import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';
import { Engine } from '../../src/engine/engine.ts';

export type MswAnswer = 'fixed' | 'engine';

export interface MswFrameApi {
  /** Starts MSW's worker for this frame; resolves once the frame's engine is open. */
  start(body: string): Promise<void>;
  /** How the handler answers the next requests. */
  answer: MswAnswer;
}

declare global {
  interface Window {
    benchMsw: MswFrameApi;
  }
}

window.benchMsw = {
  answer: 'fixed',
  async start(body) {
    const engine = await Engine.create({ indexedDB, IDBKeyRange });
    const worker = setupWorker(
      http.get('/api/v1/users/me', ({ request }) =>
        window.benchMsw.answer === 'engine' ? engine.handle(request) : new HttpResponse(body, { headers: { 'Content-Type': 'application/json' } }),
      ),
    );
    await worker.start({ serviceWorker: { url: '/mockServiceWorker.js', options: { scope: location.pathname } }, quiet: true });
  },
};
