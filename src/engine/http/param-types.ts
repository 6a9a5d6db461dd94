import { z } from 'zod';
import { listTooLong, MAX_LIST_LENGTH } from '../validation/list-limits.ts';

/**
 * Parameter types as the upstream server reads them. Strings are taken raw; every other type
 * is JSON inside the form field (`true`, `42`, `[1,2]`). Error messages carry `{var}`, which the
 * endpoint layer replaces with the parameter's name and JSON path (e.g. `narrow[0]["operand"]`).
 */
export const VAR = '{var}';

/** Decodes a JSON form field; exported so tools walking the schemas (the route fuzzer) can tell JSON parameters apart. */
export function parseJson(raw: string, ctx: z.RefinementCtx): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    ctx.addIssue({ code: 'custom', message: `${VAR} is not valid JSON` });
    return z.NEVER;
  }
}

/** A JSON-encoded form field decoded, then checked against `inner`. */
export const json = <T extends z.ZodType>(inner: T) => z.string().transform(parseJson).pipe(inner);

export const boolValue = () => z.boolean({ error: `${VAR} is not a boolean` });
export const intValue = () => z.int({ error: `${VAR} is not an integer` });
export const stringValue = () => z.string({ error: `${VAR} is not a string` });

/** A JSON list of at most `max` items (every list is bounded: validation/list-limits.ts). */
export const listOf = <T extends z.ZodType>(item: T, max = MAX_LIST_LENGTH, tooLongMessage = listTooLong(VAR, max)) =>
  z.array(item, { error: `${VAR} is not a list` }).max(max, { error: tooLongMessage });

/**
 * Raw string parameter (never JSON-decoded), as upstream's `str` parameters. Its `.max(n)`
 * counts characters (code points), as upstream does: zod (4.6 on) measures strings that way.
 */
export const str = () => z.string();
export const bool = () => json(boolValue());
export const int = () => json(intValue());
export const nonNegativeInt = () => json(intValue().min(0, { error: `${VAR} is too small` }));
export const intList = (max = MAX_LIST_LENGTH) => json(listOf(intValue(), max));
export const stringList = (max = MAX_LIST_LENGTH) => json(listOf(stringValue(), max));

/** A path segment that must be a non-negative integer (`/messages/{message_id}`). */
export const pathId = () =>
  z
    .string()
    .regex(/^\d+$/, { error: `Invalid ${VAR}` })
    .transform((s) => Number(s));

/** A raw string restricted to a set of values: "Invalid {var}" otherwise. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `Invalid ${VAR}` });
