/**
 * The realm a fresh browser database starts with (public/scenarios/demo.json). Its own module:
 * pages read it without loading the engine-side realm loader (and the schemas it brings).
 */
export const DEFAULT_SCENARIO = 'demo';
