import '../platform/supported-node.ts';
import type { z } from 'zod';
import type { scenarioSchema } from './scenario-schema.ts';

/**
 * `offline-realm/scenario`: the scenario file format, to type and check a scenario in code.
 * The same format is published as JSON Schema (`offline-realm/scenario.schema.json`) for
 * editors; `npx offline-realm validate FILE` also checks what a schema cannot (references).
 */
export {
  parseScenario,
  type Scenario,
  type ScenarioChannel,
  ScenarioError,
  type ScenarioMessage,
  scenarioSchema,
  type ScenarioUser,
} from './scenario-schema.ts';

/** A scenario as written in a file: optional keys may be left out. */
export type ScenarioInput = z.input<typeof scenarioSchema>;
