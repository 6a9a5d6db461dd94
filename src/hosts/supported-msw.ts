import mswPackage from 'msw/package.json' with { type: 'json' };

/**
 * Imported before msw itself by `offline-realm/msw`: msw 2 (which npm may pick on an older Node)
 * has other handler types, and fails later with a confusing type or runtime error.
 */
const major = Number(mswPackage.version.split('.')[0]);
if (major < 3) {
  throw new Error(`offline-realm/msw needs msw 3 (npm install -D msw@3); this project has msw ${mswPackage.version}.`);
}
