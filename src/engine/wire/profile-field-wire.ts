import type { RealmDatabase } from '../storage/database.ts';
import type { CustomProfileFieldRow } from '../storage/rows.ts';

/** The API's custom profile field object; `display_in_profile_summary` only when true, as upstream. */
export function profileFieldToWire(field: CustomProfileFieldRow): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    id: field.id,
    name: field.name,
    type: field.field_type,
    hint: field.hint,
    field_data: field.field_data,
    order: field.order,
    required: field.required,
    editable_by_user: field.editable_by_user,
  };
  if (field.display_in_profile_summary) wire.display_in_profile_summary = true;
  return wire;
}

/** The realm's fields in display order. */
export async function listProfileFields(db: RealmDatabase): Promise<CustomProfileFieldRow[]> {
  const fields = await db.custom_profile_fields.toArray();
  return fields.sort((a, b) => a.order - b.order || a.id - b.id);
}
