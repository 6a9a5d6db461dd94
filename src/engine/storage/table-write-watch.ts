import type { DBCore, DBCoreMutateRequest, Middleware } from 'dexie';

/**
 * A DBCore middleware that shows `watch` every write issued to one table of this database
 * instance, before it runs: below Dexie's hooks, so watching costs no read.
 */
export function tableWriteWatch(name: string, tableName: string, watch: (request: DBCoreMutateRequest) => void): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name,
    create: (down) => ({
      ...down,
      table: (tableNameAsked) => {
        const table = down.table(tableNameAsked);
        if (tableNameAsked !== tableName) return table;
        return {
          ...table,
          mutate: (request) => {
            watch(request);
            return table.mutate(request);
          },
        };
      },
    }),
  };
}
