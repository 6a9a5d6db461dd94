import fc from 'fast-check';
import type { z } from 'zod';
import { parseJson } from '../../../src/engine/http/param-types.ts';
import { IDS } from '../../support/test-scenario.ts';
import { hostileJsonValue, hostileNumber, hostileString } from './hostile-values.ts';

/**
 * fast-check arbitraries for one endpoint parameter, read from its zod schema (the router's own
 * table): the raw form value a client sends, or `undefined` to leave it out. A third of the
 * values are what the schema asks for (close to the realm's real ids and names, so requests
 * reach the actions), the rest boundary and hostile values of any type.
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

const realId = (): fc.Arbitrary<number> => fc.oneof(fc.constantFrom(...REAL_IDS), fc.integer({ min: 0, max: 30 }));
const realString = (): fc.Arbitrary<string> => fc.oneof(fc.constantFrom(...REAL_NAMES), fc.string({ maxLength: 20 }));

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

/** One parameter's value: left out (when optional), valid-ish, or hostile. */
export function paramArbitrary(schema: Schema): fc.Arbitrary<string | undefined> {
  const present = fc.oneof(validRaw(schema), hostileRaw());
  if (!(schema as z.ZodType).safeParse(undefined).success) return present;
  return fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: present });
}
