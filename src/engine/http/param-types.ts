import { z } from 'zod';

/**
 * Parameter types as the upstream server reads them. Strings are taken raw; every other type
 * is JSON inside the form field (`true`, `42`, `[1,2]`). Error messages carry `{var}`, which the
 * endpoint layer replaces with the parameter's name and JSON path (e.g. `narrow[0]["operand"]`).
 */
export const VAR = '{var}';

function parseJson(raw: string, ctx: z.RefinementCtx): unknown {
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
export const listOf = <T extends z.ZodType>(item: T) => z.array(item, { error: `${VAR} is not a list` });

/** Raw string parameter (never JSON-decoded), as upstream's `str` parameters. */
export const str = () => z.string();
export const bool = () => json(boolValue());
export const int = () => json(intValue());
export const nonNegativeInt = () => json(intValue().min(0, { error: `${VAR} is too small` }));
export const intList = () => json(listOf(intValue()));
export const stringList = () => json(listOf(stringValue()));

/** A path segment that must be a non-negative integer (`/messages/{message_id}`). */
export const pathId = () =>
  z
    .string()
    .regex(/^\d+$/, { error: `Invalid ${VAR}` })
    .transform((s) => Number(s));

/** A raw string restricted to a set of values: "Invalid {var}" otherwise. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `Invalid ${VAR}` });
