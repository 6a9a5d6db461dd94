import { DEFAULT_SCENARIO } from '../browser-host/protocol/default-scenario.ts';

/** Which scenario file the realm came from, for "Reset" and the users' passwords (per origin, like the realm). */
const SCENARIO_KEY = 'offline-realm:scenario';

export function recordedScenario(): string {
  return localStorage.getItem(SCENARIO_KEY) ?? DEFAULT_SCENARIO;
}

export function recordScenario(name: string): void {
  localStorage.setItem(SCENARIO_KEY, name);
}
