import { z } from 'zod';
import { createProfileField, deleteProfileField, type FieldData, reorderProfileFields, updateProfileField } from '../actions/profile-fields.ts';
import { listProfileFields, profileFieldToWire } from '../wire/profile-field-wire.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, intList, json, pathId, str, VAR } from '../http/param-types.ts';

const fieldData = () => json(z.record(z.string(), z.unknown(), { error: `${VAR} is not a dict` }));

/** Custom profile fields (spec 4.10): anyone lists them; administrators create, edit, delete and reorder. */
export const profileFieldEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/realm/profile_fields',
    params: {},
    async read(scope) {
      const fields = await listProfileFields(scope.db);
      return { custom_fields: fields.map(profileFieldToWire) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/realm/profile_fields',
    auth: 'admin',
    params: {
      name: str().default(''),
      hint: str().default(''),
      field_type: int(),
      field_data: fieldData().default({}),
      display_in_profile_summary: bool().default(false),
      required: bool().default(false),
      editable_by_user: bool().default(true),
    },
    async write(scope, params) {
      const id = await createProfileField(scope, {
        name: params.name,
        hint: params.hint,
        fieldType: params.field_type,
        fieldData: params.field_data as FieldData,
        displayInProfileSummary: params.display_in_profile_summary,
        required: params.required,
        editableByUser: params.editable_by_user,
      });
      return { id };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/realm/profile_fields',
    auth: 'admin',
    params: { order: intList() },
    async write(scope, params) {
      await reorderProfileFields(scope, params.order);
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/realm/profile_fields/{field_id}',
    auth: 'admin',
    params: {
      field_id: pathId(),
      name: str().optional(),
      hint: str().optional(),
      field_data: fieldData().optional(),
      display_in_profile_summary: bool().optional(),
      required: bool().optional(),
      editable_by_user: bool().optional(),
    },
    async write(scope, params) {
      await updateProfileField(scope, {
        fieldId: params.field_id,
        name: params.name,
        hint: params.hint,
        fieldData: params.field_data as FieldData | undefined,
        displayInProfileSummary: params.display_in_profile_summary,
        required: params.required,
        editableByUser: params.editable_by_user,
      });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/realm/profile_fields/{field_id}',
    auth: 'admin',
    params: { field_id: pathId() },
    async write(scope, params) {
      await deleteProfileField(scope, params.field_id);
      return {};
    },
  }),
];
