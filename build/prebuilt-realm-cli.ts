// `node build/prebuilt-realm-cli.ts SCENARIO.json`: loads the scenario into a throwaway in-memory
// engine and prints the realm archive it makes (build/prebuilt-realms.ts runs this at build time).
// A separate process: the engine runs on Node's own TypeScript support, outside the bundler.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../src/engine/engine.ts';
import { exportRealm } from '../src/engine/realm-archive/realm-archive.ts';
import { loadScenarioFile } from '../src/hosts/scenario-file.ts';

const [path] = process.argv.slice(2);
if (!path) throw new Error('usage: node build/prebuilt-realm-cli.ts SCENARIO.json');
// A scenario's passwords are public (its JSON file is served beside the realm, and the login screen
// shows them on its demo buttons): a slow hash would protect nothing and cost every demo login
// ~70 ms of PBKDF2 in the browser. A password changed later gets the engine's full count.
const SCENARIO_PASSWORD_ITERATIONS = 1_000;
const engine = await Engine.create({ name: 'prebuilt-realm', indexedDB: new IDBFactory(), IDBKeyRange, passwordIterations: SCENARIO_PASSWORD_ITERATIONS });
await loadScenarioFile(engine, path);
process.stdout.write(JSON.stringify(await exportRealm(engine)));
engine.close();
