/**
 * Uploads and attachments: POST /user_uploads stores a file, GET /user_uploads/{realm}/{path}
 * hands out a temporary URL to it, GET /attachments lists the caller's, DELETE removes one.
 * Bytes are written before the metadata's transaction and deleted after it (see actions/uploads.ts).
 */
import { fileNotAuthorized, fileNotFound } from '../actions/served-files.ts';
import { deleteAttachment, mayAccessAttachment, recordUpload } from '../actions/uploads.ts';
import { ApiError } from '../errors/api-error.ts';
import { callerAction, callerRead, defineEndpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';
import { newPathId, pathIdFromUrlPath, uploadUrl, USER_UPLOADS_PREFIX } from '../storage/upload-paths.ts';
import { fileTooLarge, maxFileUploadBytes, uploadContentType } from '../validation/upload-limits.ts';
import { attachmentsOf, attachmentToWire, uploadSpaceUsed } from '../wire/attachment-wire.ts';

/** Upstream unquotes the name a client sent (some percent-encode it). */
function uploadedFileName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

export const uploadEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/user_uploads',
    params: {},
    async handler(ctx) {
      // A file part without a name is no file, as for Django (a browser's empty file input).
      const files = ctx.files.filter((file) => file.name !== '');
      if (files.length === 0) throw new ApiError('You must specify a file to upload');
      if (files.length !== 1) throw new ApiError('You may only upload one file at a time');
      const [file] = files;
      if (file.size > maxFileUploadBytes(ctx.realm)) throw fileTooLarge(ctx.realm);
      const fileName = uploadedFileName(file.name);
      const path = newPathId(ctx.realm.id, fileName);
      const { uploads } = ctx.engine;
      await uploads.put(path, new Uint8Array(await file.arrayBuffer()));
      try {
        await callerAction(ctx, (scope) =>
          recordUpload(scope, { pathId: path, fileName, contentType: uploadContentType(file.type, fileName), size: file.size }),
        );
      } catch (error) {
        // No metadata, no file: a refused upload leaves nothing behind.
        await uploads.delete(path);
        throw error;
      }
      const url = uploadUrl(path);
      // `uri` is upstream's deprecated name for `url`, still sent.
      return { uri: url, url, filename: fileName };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/user_uploads/{realm_id_str}/{filename*}',
    params: { realm_id_str: str(), filename: str() },
    async handler(ctx, params) {
      const path = pathIdFromUrlPath(`${params.realm_id_str}/${params.filename}`);
      if (path === null) throw fileNotFound();
      const allowed = await callerRead(ctx, ctx.user, async ({ db, directory, caller }) => {
        const row = await db.attachments.where('path_id').equals(path).first();
        if (!row) throw fileNotFound();
        return mayAccessAttachment(db, directory, caller, row);
      });
      if (!allowed) throw fileNotAuthorized();
      const token = ctx.engine.temporaryUploadUrls.issue(path);
      const name = path.slice(path.lastIndexOf('/') + 1);
      return { url: `${USER_UPLOADS_PREFIX}temporary/${token}/${encodeURIComponent(name)}` };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/attachments',
    params: {},
    async read({ db, caller }) {
      const rows = await attachmentsOf(db, caller.id);
      return {
        attachments: await Promise.all(rows.map((row) => attachmentToWire(db, row))),
        upload_space_used: await uploadSpaceUsed(db),
      };
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/attachments/{attachment_id}',
    params: { attachment_id: pathId() },
    async handler(ctx, params) {
      const path = await callerAction(ctx, (scope) => deleteAttachment(scope, params.attachment_id));
      await ctx.engine.uploads.delete(path);
      return {};
    },
  }),
];
