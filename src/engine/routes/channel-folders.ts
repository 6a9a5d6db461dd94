import { createChannelFolder, reorderChannelFolders, updateChannelFolder } from '../actions/channel-folders.ts';
import { readSnapshot, runAction } from '../actions/run-action.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, intList, pathId, str } from '../http/param-types.ts';
import { byFolderOrder, channelFolderToWire } from '../lib/channel-folder-wire.ts';
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '../lib/message-limits.ts';

const folderName = () => str().max(MAX_CHANNEL_FOLDER_NAME_LENGTH);
const folderDescription = () => str().max(MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH);

/** Channel folders (spec 4.8): administrators create, change and order them; everyone lists them. */
export const channelFolderEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/channel_folders/create',
    params: { name: folderName(), description: folderDescription() },
    async handler(ctx, params) {
      return runAction(ctx.engine, (scope) => createChannelFolder(scope, ctx.user, params));
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/channel_folders',
    params: { include_archived: bool().default(false) },
    async handler(ctx, params) {
      return readSnapshot(ctx.engine, async (db) => {
        const folders = await db.channel_folders.toArray();
        return {
          channel_folders: folders
            .filter((f) => params.include_archived || !f.is_archived)
            .sort(byFolderOrder)
            .map(channelFolderToWire),
        };
      });
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/channel_folders/{channel_folder_id}',
    params: {
      channel_folder_id: pathId(),
      name: folderName().optional(),
      description: folderDescription().optional(),
      is_archived: bool().optional(),
    },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) =>
        updateChannelFolder(scope, ctx.user, params.channel_folder_id, {
          name: params.name,
          description: params.description,
          isArchived: params.is_archived,
        }),
      );
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/channel_folders',
    params: { order: intList() },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) => reorderChannelFolders(scope, ctx.user, params.order));
      return {};
    },
  }),
];
