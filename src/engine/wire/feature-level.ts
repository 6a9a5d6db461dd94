/**
 * The API level this server implements (spec section 9). Clients gate features on it, so it
 * must be at least the level of the newest change our spec describes: the channel creation
 * endpoint, level 417.
 */
export const SERVICE_FEATURE_LEVEL = 417;

/** The server's version string; this server is not a fork of upstream, so it is its own merge base. */
export const SERVICE_VERSION = '11.0-offline-realm';
export const SERVICE_MERGE_BASE = SERVICE_VERSION;

/**
 * The version facts every /register and /server_settings response carries, under our spec's
 * names and under upstream's, which real clients read: the Python client and zulip-terminal
 * refuse a server without `zulip_version`, and clients gate features on `zulip_feature_level`.
 */
export const serviceVersionFields = () => ({
  service_feature_level: SERVICE_FEATURE_LEVEL,
  service_version: SERVICE_VERSION,
  service_merge_base: SERVICE_MERGE_BASE,
  zulip_feature_level: SERVICE_FEATURE_LEVEL,
  zulip_version: SERVICE_VERSION,
  zulip_merge_base: SERVICE_MERGE_BASE,
});
