/**
 * The files of a new project that uses the packed package, as its author would write them:
 * a plain Node script importing every entry, and a strict TypeScript file typing them.
 */

export const CONSUMER_PACKAGE = { name: 'consumer', private: true, type: 'module' };

/** Imports every entry, answers one request through msw and prints what it saw as JSON. */
export const NODE_SCRIPT = `
import { Engine, ManualClock, exportRealm } from 'offline-realm';
import { createNodeServer } from 'offline-realm/node';
import { createInProcessEngine, handlersFor } from 'offline-realm/msw';
import { parseScenario } from 'offline-realm/scenario';
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
  entries: [typeof Engine, typeof ManualClock, typeof exportRealm, typeof createNodeServer, typeof parseScenario],
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
`;

export const TSCONFIG = {
  compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true },
  files: ['index.ts'],
};
