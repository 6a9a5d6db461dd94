import type { Engine } from '../engine/engine.ts';

/** The realm a fresh browser database starts with (public/scenarios/demo.json). */
export const DEFAULT_SCENARIO = 'demo';

/** Scenario names are file names under /scenarios/; nothing else may be fetched through them. */
const SCENARIO_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Loads the default scenario when the database holds no realm yet (the first visit). */
export async function ensureRealm(engine: Engine, origin: string): Promise<void> {
  if (await engine.db.realm.get(1)) return;
  await engine.loadScenario(await fetchScenario(DEFAULT_SCENARIO, origin));
}

/** Replaces the realm with /scenarios/NAME.json; a missing or faulty file changes nothing. */
export async function replaceRealm(engine: Engine, name: string, origin: string): Promise<void> {
  await engine.loadScenario(await fetchScenario(name, origin));
}

async function fetchScenario(name: string, origin: string): Promise<unknown> {
  if (!SCENARIO_NAME.test(name)) throw new Error(`"${name}" is not a scenario name (letters, digits, - and _)`);
  const response = await fetch(new URL(`/scenarios/${name}.json`, origin));
  // A dev or preview server answers an unknown path with the app's index.html, status 200.
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  if (!response.ok || !isJson) throw new Error(`scenario "${name}" not found at /scenarios/${name}.json`);
  try {
    return await response.json();
  } catch {
    throw new Error(`scenario "${name}" is not valid JSON`);
  }
}
