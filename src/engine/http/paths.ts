/** Every API path lives below this prefix. */
export const API_PREFIX = '/api/v1';
