import type { Endpoint } from '../http/endpoint.ts';
import { authEndpoints } from './auth.ts';
import { messageSendEndpoints } from './messages-send.ts';

/** Every endpoint of the API; each routes file owns one family. */
export const ALL_ENDPOINTS: Endpoint[] = [...authEndpoints, ...messageSendEndpoints];
