import type { HostAnswer, HostRequest } from './harness.ts';
import { KNOWN_DIFFERENCES, UNDOCUMENTED_ERROR_FIELDS } from './openapi-differences.ts';
import { schemaFaults } from '../support/openapi-schema.ts';

/** What the checks saw, for the closing test of a run. */
export const openApiTally = { validated: 0, undocumented: 0, differencesSeen: new Set<number>() };

/**
 * Checks one answer against upstream's OpenAPI schema and throws on any fault that
 * openapi-differences.ts does not list, so the case that produced it fails.
 */
export function checkAgainstOpenApi(request: HostRequest, answer: HostAnswer): void {
  const body =
    answer.status >= 400
      ? Object.fromEntries(Object.entries(answer.body).filter(([key]) => !(key in UNDOCUMENTED_ERROR_FIELDS)))
      : answer.body;
  const faults = schemaFaults(request.method, request.path, answer.status, body);
  if (faults === undefined) {
    openApiTally.undocumented += 1;
    return;
  }
  openApiTally.validated += 1;
  const unexplained = faults
    .map((fault) => `${fault.where} ${fault.path}: ${fault.message}`)
    .filter((text) => {
      const known = KNOWN_DIFFERENCES.findIndex((difference) => difference.fault.test(text));
      if (known >= 0) openApiTally.differencesSeen.add(known);
      return known < 0;
    });
  if (unexplained.length > 0) {
    throw new Error(`${request.method} ${request.path} answered outside upstream's schema:\n${[...new Set(unexplained)].join('\n')}`);
  }
}
