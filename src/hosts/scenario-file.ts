import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../engine/engine.ts';
import { ScenarioError } from '../engine/scenario/scenario-schema.ts';

export const DEFAULT_SCENARIO_PATH = fileURLToPath(new URL('../../public/scenarios/demo.json', import.meta.url));

/** A scenario file that cannot be used; the message names the file and the JSON path of the fault. */
export class ScenarioFileError extends Error {}

/** Replaces the engine's realm with the scenario in the file at `path`; a faulty file changes nothing. */
export async function loadScenarioFile(engine: Engine, path: string, scenario?: unknown): Promise<void> {
  const input = scenario ?? (await readScenarioFile(path));
  try {
    await engine.loadScenario(input);
  } catch (error) {
    if (error instanceof ScenarioError) throw new ScenarioFileError(`${path}: ${error.message}`);
    throw error;
  }
}

/**
 * Reads a scenario file and proves it loads, on a throwaway in-memory realm, so that a faulty
 * file is refused before any persistent storage is created or touched.
 */
export async function readCheckedScenario(path: string): Promise<unknown> {
  const scenario = await readScenarioFile(path);
  // One PBKDF2 round is enough to exercise the load; these hashes are thrown away.
  const probe = await Engine.create({ name: 'scenario-check', indexedDB: new IDBFactory(), IDBKeyRange, passwordIterations: 1 });
  try {
    await loadScenarioFile(probe, path, scenario);
  } finally {
    probe.close();
  }
  return scenario;
}

async function readScenarioFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ScenarioFileError(`${path}: cannot read the scenario file (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ScenarioFileError(`${path}: $: not valid JSON (${(error as Error).message})`);
  }
}
