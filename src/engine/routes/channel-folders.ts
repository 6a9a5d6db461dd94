import { createChannelFolder, reorderChannelFolders, updateChannelFolder } from '../actions/channel-folders.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, intList, pathId, str } from '../http/param-types.ts';
import { byFolderOrder, channelFolderToWire } from '../wire/channel-folder-wire.ts';
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '../validation/message-limits.ts';

const folderName = () => str().max(MAX_CHANNEL_FOLDER_NAME_LENGTH);
const folderDescription = () => str().max(MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH);

/** Channel folders (spec 4.8): administrators create, change and order them; everyone lists them. */
export const channelFolderEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/channel_folders/create',
    auth: 'admin',
    params: { name: folderName(), description: folderDescription() },
    write: (scope, params) => createChannelFolder(scope, params),
  }),

  defineEndpoint({
    method: 'GET',
    path: '/channel_folders',
    params: { include_archived: bool().default(false) },
    async read(scope, params) {
      const folders = await scope.db.channel_folders.toArray();
      return {
        channel_folders: folders
          .filter((f) => params.include_archived || !f.is_archived)
          .sort(byFolderOrder)
          .map(channelFolderToWire),
      };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/channel_folders/{channel_folder_id}',
    auth: 'admin',
    params: {
      channel_folder_id: pathId(),
      name: folderName().optional(),
      description: folderDescription().optional(),
      is_archived: bool().optional(),
    },
    async write(scope, params) {
      await updateChannelFolder(scope, {
        folderId: params.channel_folder_id,
        name: params.name,
        description: params.description,
        isArchived: params.is_archived,
      });
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/channel_folders',
    auth: 'admin',
    params: { order: intList() },
    async write(scope, params) {
      await reorderChannelFolders(scope, params.order);
      return {};
    },
  }),
];
