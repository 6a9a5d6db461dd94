import { z } from 'zod';
import { VAR } from '../http/param-types.ts';

/**
 * A string parameter that clients send either raw or JSON-encoded (upstream reads some of
 * these as JSON, its documentation shows them raw): a JSON string is unwrapped, anything else
 * is taken as it is.
 */
const rawOrJsonString = () =>
  z.string().transform((raw) => {
    try {
      const value: unknown = JSON.parse(raw);
      return typeof value === 'string' ? value : raw;
    } catch {
      return raw;
    }
  });

export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;

/** `topics_policy`: one of the four policies (spec 2.5). */
export const topicsPolicyParam = () => rawOrJsonString().pipe(z.enum(TOPICS_POLICIES, { error: `Invalid ${VAR}` }));

/** `message_retention_days`: a JSON number of days, or `realm_default` / `unlimited` (raw or JSON). */
export const retentionParam = () =>
  z.string().transform((raw): string | number => {
    try {
      const value: unknown = JSON.parse(raw);
      return typeof value === 'number' || typeof value === 'string' ? value : raw;
    } catch {
      return raw;
    }
  });
