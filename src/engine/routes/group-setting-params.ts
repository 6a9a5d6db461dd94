import { z } from 'zod';
import { intValue, listOf } from '../http/param-types.ts';

/** A group-setting value as clients send it (spec 2.6): a group id, or members and subgroups. */
export const groupSettingValue = () =>
  z.union([
    intValue(),
    z.strictObject({ direct_members: listOf(intValue()), direct_subgroups: listOf(intValue()) }),
  ]);

/** An update to a group-setting value: the new value, and optionally the value expected now. */
export const groupSettingUpdate = () => z.strictObject({ new: groupSettingValue(), old: groupSettingValue().optional() });
