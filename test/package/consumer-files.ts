/**
 * The files of a new project that uses the packed package, as its author would write them:
 * a plain Node script importing every entry, a strict TypeScript file typing them, and a tiny
 * web app that runs the in-browser server in its own page.
 */

export const CONSUMER_PACKAGE = { name: 'consumer', private: true, type: 'module' };

/** Imports every entry, answers one request through msw and prints what it saw as JSON. */
export const NODE_SCRIPT = `
import { Engine, ManualClock, exportRealm } from 'offline-realm';
import { createNodeServer } from 'offline-realm/node';
import { createInProcessEngine, handlersFor } from 'offline-realm/msw';
import { parseScenario } from 'offline-realm/scenario';
import { startRealm } from 'offline-realm/browser';
import { setupServer } from 'msw/node';

const engine = await createInProcessEngine();
const server = setupServer(...handlersFor(engine));
server.listen({ onUnhandledRequest: 'error' });
const response = await fetch('http://chat.example.test/api/v1/server_settings');
const body = await response.json();
server.close();
engine.close();
const scenario = parseScenario({ users: [{ email: 'a@x.test', full_name: 'A', role: 100 }] });
console.log(JSON.stringify({
  entries: [typeof Engine, typeof ManualClock, typeof exportRealm, typeof createNodeServer, typeof parseScenario, typeof startRealm],
  status: response.status,
  realm: body.realm_name,
  featureLevel: body.zulip_feature_level,
  scenarioRealm: scenario.realm.name,
}));
`;

/** Uses each entry's types the way a test suite would; \`tsc\` must find no error. */
export const TYPESCRIPT_FILE = `
import { Engine, type EngineOptions, type RealmArchive } from 'offline-realm';
import { createNodeServer, type NodeServer } from 'offline-realm/node';
import { createInProcessEngine, handlersFor } from 'offline-realm/msw';
import { parseScenario, type Scenario, type ScenarioInput } from 'offline-realm/scenario';
import { type RealmSummary, startRealm, type StartRealmOptions } from 'offline-realm/browser';
import type { HttpHandler } from 'msw';

const input: ScenarioInput = { users: [{ email: 'a@x.test', full_name: 'A', role: 100 }] };
const scenario: Scenario = parseScenario(input);
const options: EngineOptions = {};
export async function start(): Promise<{ server: NodeServer; handlers: HttpHandler[]; archive?: RealmArchive }> {
  const engine: Engine = await createInProcessEngine(scenario, options);
  const handlers = handlersFor(engine);
  const server = await createNodeServer(engine, { port: 0 });
  const response: Response = await engine.handle(new Request('http://x.test/api/v1/server_settings'));
  void response;
  return { server, handlers };
}
export async function startInBrowser(): Promise<string> {
  const options: StartRealmOptions = { scenario: input, serviceWorkerUrl: '/offline-realm-sw.js', reset: true };
  const realm: RealmSummary = await startRealm(options);
  return realm.users[0]?.apiKey ?? '';
}
`;

export const TSCONFIG = {
  compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true },
  files: ['index.ts'],
};

/** A frontend developer's own realm, served by their site as a JSON file. */
export const BROWSER_SCENARIO = {
  realm: { name: 'Prototype Realm' },
  users: [
    { email: 'ada@proto.test', full_name: 'Ada Lovelace', role: 100 },
    { email: 'alan@proto.test', full_name: 'Alan Turing', role: 400 },
  ],
};

/** A page of their app without a bundler: an import map names the installed package's file. */
export const pageWith = (script: string) => `<!doctype html>
<html>
  <head>
    <meta charset="utf-8">
    <title>A prototype</title>
    <script type="importmap">{ "imports": { "offline-realm/browser": "/node_modules/offline-realm/lib/browser/index.js" } }</script>
  </head>
  <body>
    <output id="result"></output>
    <script type="module" src="/${script}"></script>
  </body>
</html>
`;

/** Starts the server in the page, then calls the API as any client code would; shows what came back. */
export const APP_SCRIPT = `
import { startRealm } from 'offline-realm/browser';

const show = (value) => (document.getElementById('result').textContent = JSON.stringify(value));
try {
  const realm = await startRealm({ scenario: '/prototype-realm.json', serviceWorkerUrl: '/offline-realm-sw.js' });
  const ada = realm.users.find((user) => user.email === 'ada@proto.test');
  const settings = await fetch('/api/v1/server_settings');
  const me = await fetch('/api/v1/users/me', { headers: { Authorization: 'Basic ' + btoa(ada.email + ':' + ada.apiKey) } });
  const settingsBody = await settings.json();
  const meBody = await me.json();
  show({
    realm: { name: realm.realmName, users: realm.users.map((user) => user.fullName) },
    settings: { status: settings.status, realm_name: settingsBody.realm_name },
    me: { status: me.status, result: meBody.result, email: meBody.email, full_name: meBody.full_name, role: meBody.role },
  });
} catch (error) {
  show({ error: String(error) });
}
`;

/** Starts wrongly: worker files not copied, a URL that answers a page, a scenario with a fault. */
export const FAULTY_START_SCRIPT = `
import { startRealm } from 'offline-realm/browser';

const messages = [];
for (const options of [
  { scenario: '/prototype-realm.json', serviceWorkerUrl: '/not-copied/offline-realm-sw.js' },
  { scenario: '/prototype-realm.json', serviceWorkerUrl: '/offline-realm-sw.js', engineWorkerUrl: '/index.html' },
  { scenario: { users: [{ email: 'ada@proto.test', full_name: 'Ada', role: 7 }] }, serviceWorkerUrl: '/offline-realm-sw.js' },
]) {
  try {
    await startRealm(options);
    messages.push('started');
  } catch (error) {
    messages.push(error.message);
  }
}
document.getElementById('result').textContent = JSON.stringify(messages);
`;
