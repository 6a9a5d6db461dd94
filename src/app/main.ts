import { bootServer } from '../browser-host/boot.ts';
import { ServerConsole } from './server-console.ts';
import { scenarioCredentials } from './scenario-credentials.ts';

/** Which scenario file the realm came from: the console shows its passwords. */
const SCENARIO_KEY = 'offline-realm:scenario';

const requested = new URL(location.href).searchParams.get('scenario');
const view = new ServerConsole(document.getElementById('console') as HTMLElement);
view.showStatus('starting', 'Starting the in-browser server…');

bootServer().then(
  async (engine) => {
    if (requested) localStorage.setItem(SCENARIO_KEY, requested);
    view.showStatus('ready', 'Ready: this origin’s /api/v1/ is served by the engine in this browser.');
    view.followRequestLog();
    const summary = await engine.realmSummary();
    view.showRealm(summary, await scenarioCredentials(localStorage.getItem(SCENARIO_KEY) ?? 'demo'));
  },
  (error: unknown) => view.showStatus('failed', `The server could not start: ${error instanceof Error ? error.message : String(error)}`),
);
