import { serviceVersionFields } from '../wire/feature-level.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { realmUrl } from '../wire/paths.ts';
import { spectatorsAdmitted } from '../permissions/realm-channel-settings.ts';
import { renderMessage } from '../markdown/render-message.ts';

/** Only password (email) login exists here; every single-sign-on method is off. */
const AUTHENTICATION_METHODS = {
  password: true,
  dev: false,
  email: true,
  ldap: false,
  remoteuser: false,
  github: false,
  azuread: false,
  gitlab: false,
  apple: false,
  google: false,
  saml: false,
  'openid connect': false,
};

export const serverSettingsEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/server_settings',
    auth: 'none',
    params: {},
    async read({ directory }) {
      const { realm } = directory;
      const url = realmUrl(realm);
      const description = realm.description ? renderMessage(realm.description, directory.markdownRealm()).html : '';
      const webPublicAccess = spectatorsAdmitted(directory);
      return {
        authentication_methods: AUTHENTICATION_METHODS,
        external_authentication_methods: [],
        ...serviceVersionFields(),
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        realm_url: url,
        realm_uri: url,
        realm_name: realm.name,
        realm_icon: '',
        realm_description: description,
        realm_web_public_access_enabled: webPublicAccess,
      };
    },
  }),
];
