import fc from 'fast-check';
import type { z } from 'zod';
import { parseJson } from '../../../src/engine/http/param-types.ts';
import { IDS } from '../../support/test-scenario.ts';
import { hostileJsonValue, hostileNumber, hostileString } from './hostile-values.ts';

/**
 * fast-check arbitraries for one endpoint parameter, read from its zod schema (the router's own
 * table): the raw form value a client sends, or `undefined` to leave it out. Valid-ish values
 * are what the schema asks for, close to the realm's real ids and names so that requests reach
 * the actions; hostile ones are boundary and hostile values of any type.
 */

type Schema = z.core.$ZodType;

const REAL_IDS = [...new Set(Object.values(IDS))];
const REAL_NAMES = ['general', 'design', 'secret', 'announce', 'strict', 'welcome', 'plans', 'Work', 'olivia@zulip.test', 'mark@zulip.test', 'gail@zulip.test', 'Mark Member', 'smile', '+1', 'heart'];
/** Narrows a client sends (`narrow` is read as any JSON, then checked term by term). */
const NARROWS: unknown[] = [
  [],
  [{ operator: 'channel', operand: 'general' }],
  [{ operator: 'channel', operand: IDS.secret }],
  [{ operator: 'topic', operand: 'welcome' }, { operator: 'channel', operand: 'general' }],
  [{ operator: 'dm', operand: ['olivia@zulip.test'] }],
  [{ operator: 'dm', operand: [IDS.olivia] }],
  [{ operator: 'sender', operand: 'olivia@zulip.test' }],
  [{ operator: 'is', operand: 'unread' }],
  [{ operator: 'search', operand: 'secret plans' }],
  [{ operator: 'id', operand: 3 }],
  [['stream', 'general']],
  [{ operator: 'search', operand: '"' }, { operator: 'near', operand: -1, negated: true }],
];

/** Raw values that parameters of these names take (a flag, an anchor, a time to come), which no type says. */
const IN_AN_HOUR = String(Date.UTC(2026, 0, 1, 13) / 1000);
const PARAM_HINTS: Record<string, string[]> = {
  flag: ['read', 'starred', 'collapsed'],
  anchor: ['newest', 'oldest', 'first_unread', '1'],
  narrow: ['[]', '[{"operator":"channel","operand":"general"}]'],
  topic: ['welcome', 'plans'],
  topic_name: ['welcome', 'plans'],
  message_id: ['1', '2', '4'],
  emoji_name: ['smile', '+1'],
  scheduled_delivery_timestamp: [IN_AN_HOUR],
  to: ['general', String(IDS.general), '["olivia@zulip.test"]', `[${IDS.mark}]`],
  status: ['active', 'idle'],
  property: ['pin_to_top', 'is_muted', 'color'],
  subscriptions: ['[{"name":"design"}]', '["general"]'],
  principals: ['["mia@zulip.test"]', `[${IDS.mia}]`],
  full_name: ['Renamed Person'],
  email: ['new@zulip.test'],
  password: ['mark-pass', 'a-new-password'],
  username: ['mark@zulip.test'],
  invitee_emails: ['friend@example.com'],
  report_type: ['spam'],
};

// Mostly the realm's own ids and names, so that a request names something that exists.
const realId = (): fc.Arbitrary<number> =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...REAL_IDS) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 30 }) });
const realString = (): fc.Arbitrary<string> =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...REAL_NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) });

const defOf = (schema: Schema) => schema._zod.def as z.core.$ZodTypeDef & Record<string, any>;

/** A JSON parameter: `string -> parseJson -> inner`, as `json()` in param-types builds it. */
function jsonInner(schema: Schema): Schema | null {
  const def = defOf(schema);
  if (def.type !== 'pipe') return null;
  const decode = defOf(def.in);
  if (decode.type !== 'pipe' || defOf(decode.out).type !== 'transform' || defOf(decode.out).transform !== parseJson) return null;
  return def.out as Schema;
}

/** A value the schema accepts (or nearly: refinements are not read), as a JS value before encoding. */
function validValue(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > 6) return fc.constant(null);
  switch (def.type) {
    case 'optional':
    case 'nonoptional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return validValue(def.innerType, depth + 1);
    case 'nullable':
      return fc.oneof(fc.constant(null), validValue(def.innerType, depth + 1));
    case 'pipe':
      return validValue(def.in, depth + 1);
    case 'string':
      return realString();
    case 'number':
      return realId();
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...(Object.values(def.entries) as unknown[]));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'array':
      return fc.array(validValue(def.element, depth + 1), { maxLength: 4 });
    case 'object':
      return fc.record(
        Object.fromEntries(Object.entries(def.shape as Record<string, Schema>).map(([key, value]) => [key, validValue(value, depth + 1)])),
        { requiredKeys: [] },
      );
    case 'union':
      return fc.oneof(...(def.options as Schema[]).map((option) => validValue(option, depth + 1)));
    case 'record':
      return fc.dictionary(realString(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    default:
      // unknown (narrows), custom and the like: anything JSON.
      return fc.oneof(fc.constantFrom(...NARROWS), fc.jsonValue({ maxDepth: 3 }));
  }
}

/** The form value of a valid-ish parameter: JSON-encoded for JSON parameters, raw otherwise. */
function validRaw(schema: Schema): fc.Arbitrary<string> {
  let inner = schema;
  for (let def = defOf(inner); ['optional', 'default', 'nullable', 'prefault'].includes(def.type); def = defOf(inner)) inner = def.innerType;
  const decoded = jsonInner(inner);
  if (decoded) return validValue(decoded).map((value) => JSON.stringify(value) ?? 'null');
  const def = defOf(inner);
  if (def.type === 'enum' || def.type === 'string') return validValue(inner).map(String);
  // A raw string with a transform of its own: a path id, or a parameter that decodes itself
  // (`to`, `principals`: a JSON list or a bare name).
  return fc.oneof(
    realId().map(String),
    realString(),
    fc.oneof(fc.array(realId(), { maxLength: 3 }), fc.array(realString(), { maxLength: 3 })).map((value) => JSON.stringify(value)),
  );
}

/** A hostile form value of any type: raw strings, or JSON of the wrong type, size or depth. */
export function hostileRaw(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: hostileString() },
    { weight: 1, arbitrary: hostileNumber().map(String) },
    { weight: 2, arbitrary: hostileJsonValue().map((value) => JSON.stringify(value) ?? 'null') },
  );
}

/** An optional parameter is left out `absent` times in `absent + 1`. */
const optionalIn = (schema: Schema, present: fc.Arbitrary<string>, absent: number): fc.Arbitrary<string | undefined> =>
  (schema as z.ZodType).safeParse(undefined).success ? fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: present }) : present;

/** A valid-ish value for the parameter `name`: its hint when it has one, else read from its type. */
function validNamed(name: string, schema: Schema): fc.Arbitrary<string> {
  // `message_id`, `stream_id`, ...: mostly a real id, whatever the parameter's type.
  const hinted = PARAM_HINTS[name] ?? (name.endsWith('_id') ? REAL_IDS.map(String) : null);
  return hinted ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: validRaw(schema) }) : validRaw(schema);
}

/** One parameter's value as a well-behaved client sends it: valid-ish, or (mostly) left out when optional. */
export const validParamArbitrary = (name: string, schema: Schema): fc.Arbitrary<string | undefined> => optionalIn(schema, validNamed(name, schema), 3);

/** One parameter's value: left out (when optional), valid-ish, or hostile. */
export const paramArbitrary = (name: string, schema: Schema): fc.Arbitrary<string | undefined> =>
  optionalIn(schema, fc.oneof(validNamed(name, schema), hostileRaw()), 1);
