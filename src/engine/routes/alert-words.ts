import { addAlertWords, removeAlertWords } from '../actions/alert-words.ts';
import { alertWordsOf } from '../wire/alert-word-wire.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { json, listOf, stringValue, VAR } from '../http/param-types.ts';

/** Upstream's limit on one alert word (or phrase). */
const MAX_ALERT_WORD_LENGTH = 100;

/** The caller's alert words; each change answers the whole new list. */
export const alertWordEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/users/me/alert_words',
    params: {},
    async read(scope) {
      return { alert_words: await alertWordsOf(scope.db, scope.caller.id) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/users/me/alert_words',
    params: {
      alert_words: json(listOf(stringValue().max(MAX_ALERT_WORD_LENGTH, { error: `${VAR} is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)` }))),
    },
    async write(scope, params) {
      return { alert_words: await addAlertWords(scope, params.alert_words) };
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/users/me/alert_words',
    params: { alert_words: json(listOf(stringValue())) },
    async write(scope, params) {
      return { alert_words: await removeAlertWords(scope, params.alert_words) };
    },
  }),
];
