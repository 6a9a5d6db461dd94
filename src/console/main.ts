import { bootServer } from '../browser-host/page/boot.ts';
import type { EngineConnection } from '../browser-host/page/engine-connection.ts';
import type { RealmSummary } from '../browser-host/protocol/relay-protocol.ts';
import { EventFollower, type Observer } from './event-follower.ts';
import { RealmControls } from './realm-controls.ts';
import { ServerConsole } from './server-console.ts';
import { scenarioCredentials } from './scenario-credentials.ts';
import { recordedScenario, recordScenario } from './scenario-record.ts';
import { serverLocation } from './server-location.ts';
import { followStorage } from './storage-status.ts';

const requested = new URL(location.href).searchParams.get('scenario');
const view = new ServerConsole(document.getElementById('console') as HTMLElement);
view.showStatus('starting', 'Starting the in-browser server…');
view.showLocation(serverLocation());

bootServer().then(
  async (engine) => {
    if (requested) recordScenario(requested);
    view.showStatus('ready', 'Ready: this origin’s /api/v1/ is served by the engine in this browser.');
    view.followRequestLog();
    void followStorage((text) => view.showStorage(text));
    view.showControls(new RealmControls(engine, async () => void (await showRealm(engine))).element);
    // The realm is drawn at each (re)registration: a lost queue means the realm was replaced
    // (perhaps from another tab) or the engine restarted.
    void new EventFollower({
      observe: async () => observerOf(await showRealm(engine)),
      following: (observer) => view.showEventObserver(observer.fullName),
      event: (event) => view.showEvent(event),
    }).run();
  },
  (error: unknown) => view.showStatus('failed', `The server could not start: ${error instanceof Error ? error.message : String(error)}`),
);

async function showRealm(engine: EngineConnection): Promise<RealmSummary> {
  const summary = await engine.realmSummary();
  view.showRealm(summary, await scenarioCredentials(recordedScenario()));
  return summary;
}

/** The highest-ranking person (normally the owner): with every public channel, their queue sees the most. */
function observerOf(summary: RealmSummary): Observer | null {
  const [observer] = summary.users.filter((user) => !user.isBot).sort((a, b) => a.role - b.role);
  return observer ? { email: observer.email, apiKey: observer.apiKey, fullName: observer.fullName } : null;
}
