import { str } from '../http/param-types.ts';

/** `reaction_type`, with upstream's name for our spec's `service_extra_emoji`: real clients send it. */
export const reactionTypeParam = () => str().transform((type) => (type === 'zulip_extra_emoji' ? 'service_extra_emoji' : type));
