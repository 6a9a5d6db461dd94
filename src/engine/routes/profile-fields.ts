import { z } from 'zod';
import {
  createProfileField,
  deleteProfileField,
  type FieldData,
  listProfileFields,
  profileFieldToWire,
  reorderProfileFields,
  updateProfileField,
} from '../actions/profile-fields.ts';
import { readSnapshot, runAction } from '../actions/run-action.ts';
import { unauthorizedPrincipal } from '../http/api-error.ts';
import { defineEndpoint, type RequestContext } from '../http/endpoint.ts';
import { bool, int, intList, json, pathId, str, VAR } from '../http/param-types.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';
import { ROLE_ADMIN } from '../storage/rows.ts';

const fieldData = () => json(z.record(z.string(), z.unknown(), { error: `${VAR} is not a dict` }));

function requireAdmin(ctx: RequestContext): void {
  if (ctx.user.role > ROLE_ADMIN) throw unauthorizedPrincipal('Must be an organization administrator');
}

/** Custom profile fields (spec 4.10): anyone lists them; administrators create, edit, delete and reorder. */
export const profileFieldEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/realm/profile_fields',
    params: {},
    async handler(ctx) {
      const fields = await readSnapshot(ctx.engine, (db) => listProfileFields(db));
      return { custom_fields: fields.map(profileFieldToWire) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/realm/profile_fields',
    params: {
      name: str().default(''),
      hint: str().default(''),
      field_type: int(),
      field_data: fieldData().default({}),
      display_in_profile_summary: bool().default(false),
      required: bool().default(false),
      editable_by_user: bool().default(true),
    },
    async handler(ctx, params) {
      requireAdmin(ctx);
      const id = await runAction(ctx.engine, async (scope) =>
        createProfileField(scope, await RealmDirectory.load(scope.db), {
          name: params.name,
          hint: params.hint,
          fieldType: params.field_type,
          fieldData: params.field_data as FieldData,
          displayInProfileSummary: params.display_in_profile_summary,
          required: params.required,
          editableByUser: params.editable_by_user,
        }),
      );
      return { id };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/realm/profile_fields',
    params: { order: intList() },
    async handler(ctx, params) {
      requireAdmin(ctx);
      await runAction(ctx.engine, async (scope) => reorderProfileFields(scope, await RealmDirectory.load(scope.db), params.order));
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/realm/profile_fields/{field_id}',
    params: {
      field_id: pathId(),
      name: str().optional(),
      hint: str().optional(),
      field_data: fieldData().optional(),
      display_in_profile_summary: bool().optional(),
      required: bool().optional(),
      editable_by_user: bool().optional(),
    },
    async handler(ctx, params) {
      requireAdmin(ctx);
      await runAction(ctx.engine, async (scope) =>
        updateProfileField(scope, await RealmDirectory.load(scope.db), params.field_id, {
          name: params.name,
          hint: params.hint,
          fieldData: params.field_data as FieldData | undefined,
          displayInProfileSummary: params.display_in_profile_summary,
          required: params.required,
          editableByUser: params.editable_by_user,
        }),
      );
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/realm/profile_fields/{field_id}',
    params: { field_id: pathId() },
    async handler(ctx, params) {
      requireAdmin(ctx);
      await runAction(ctx.engine, async (scope) => deleteProfileField(scope, await RealmDirectory.load(scope.db), params.field_id));
      return {};
    },
  }),
];
