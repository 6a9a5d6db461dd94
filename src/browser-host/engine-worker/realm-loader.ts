import type { Engine } from '../../engine/engine.ts';
import { importRealm } from '../../engine/realm-archive/realm-archive.ts';
import type { ScenarioSource } from '../protocol/engine-control.ts';

/** Scenario names are file names under /scenarios/; nothing else may be fetched through them. */
const SCENARIO_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Loads `whenEmpty` when the database holds no realm yet (the first visit). */
export async function ensureRealm(engine: Engine, whenEmpty: ScenarioSource, origin: string): Promise<void> {
  if (await engine.db.realm.get(1)) return;
  await replaceRealm(engine, whenEmpty, origin);
}

/** Replaces the realm with the scenario `source` names; a missing or faulty scenario changes nothing. */
export async function replaceRealm(engine: Engine, source: ScenarioSource, origin: string): Promise<void> {
  if ('name' in source) return replaceWithNamed(engine, source.name, origin);
  if ('scenario' in source) return engine.loadScenario(source.scenario);
  const url = new URL(source.url);
  const scenario = await fetchJson(url);
  if (scenario === undefined) throw new Error(`no scenario at ${url.href}: the URL must answer a JSON file`);
  await engine.loadScenario(scenario);
}

/**
 * Scenario NAME of the site's /scenarios/. The build writes each scenario's realm beside it
 * (/scenarios/NAME.realm.json, build/prebuilt-realms.ts), imported in one transaction; without
 * it (`vite dev`) the scenario itself is loaded.
 */
async function replaceWithNamed(engine: Engine, name: string, origin: string): Promise<void> {
  if (!SCENARIO_NAME.test(name)) throw new Error(`"${name}" is not a scenario name (letters, digits, - and _)`);
  const prebuilt = await fetchJson(new URL(`/scenarios/${name}.realm.json`, origin));
  if (prebuilt !== undefined) {
    await importRealm(engine, prebuilt, { madeByBuild: true });
    return;
  }
  const scenario = await fetchJson(new URL(`/scenarios/${name}.json`, origin));
  if (scenario === undefined) throw new Error(`scenario "${name}" not found at /scenarios/${name}.json`);
  await engine.loadScenario(scenario);
}

/** The file's JSON, or undefined when there is no such file. */
async function fetchJson(url: URL): Promise<unknown> {
  const response = await fetch(url);
  // A dev or preview server answers an unknown path with the app's index.html, status 200.
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  if (!response.ok || !isJson) return undefined;
  try {
    return await response.json();
  } catch {
    throw new Error(`${url.pathname} is not valid JSON`);
  }
}
