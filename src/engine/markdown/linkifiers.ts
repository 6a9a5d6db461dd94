/**
 * Realm linkifiers: a regex (Python syntax, as upstream stores it) whose matches in message text
 * and topics become links to an RFC 6570 URL template expanded with the pattern's named groups.
 *
 * Patterns run on re2js, a linear-time engine, so a hostile pattern such as `(a+)+$` cannot stall
 * the server. RE2 reads Python's `(?P<name>…)` groups natively and refuses what it cannot run in
 * linear time (backreferences, lookaround), which is what upstream's re2 validation refuses too.
 */
import { RE2JS } from 're2js';
import { parseTemplate, type Template } from 'url-template';
import { templateVariables } from './url-template-syntax.ts';

export interface LinkifierDefinition {
  id: number;
  pattern: string;
  url_template: string;
}

export interface LinkifierMatch {
  /** Offsets of the linked text in the searched string. */
  start: number;
  end: number;
  text: string;
  url: string;
}

export interface CompiledLinkifier extends LinkifierDefinition {
  /** The pattern's compiled program size: what matching costs per character searched. */
  size: number;
  /** Every match in `text`, left to right, each bounded the way upstream bounds linkifier matches. */
  matches(text: string): LinkifierMatch[];
}

/**
 * Matching runs the pattern's program over each character, so the program's size is its cost:
 * 12 patterns of 2,000 instructions took 2 s on a 10,000-character message. One pattern may
 * compile to at most 250 instructions (typical ones take 5 to 30), refused with upstream's
 * message for a pattern too large for re2; the realm's patterns together to 2,500, which bounds
 * the linkifier work per message.
 */
export const MAX_LINKIFIER_PROGRAM_SIZE = 250;
export const MAX_REALM_LINKIFIERS_PROGRAM_SIZE = 2500;

/**
 * The schemes a linkifier may link to: the web ones upstream's linkifier model accepted
 * (Django's URLValidator). A template such as `{+u}` takes its scheme from the message or topic
 * text, so each expanded URL is checked, not only the template.
 */
const LINKIFIER_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps']);
const URL_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
// Browsers skip controls and white space inside a URL, so "java\tscript:" would be javascript:.
const SKIPPED_BY_BROWSERS = /[\u0000-\u0020\u007f]/;

/** A URL a linkifier may produce: a web scheme, or a path on the realm itself. */
export function isLinkifierUrl(url: string): boolean {
  if (url === '' || SKIPPED_BY_BROWSERS.test(url)) return false;
  const scheme = URL_SCHEME.exec(url)?.[1];
  return scheme === undefined ? /^[/#?]/.test(url) : LINKIFIER_SCHEMES.has(scheme.toLowerCase());
}

/** A template whose literal start names a scheme can only produce that scheme: it must be a web one. */
export function templateSchemeAllowed(urlTemplate: string): boolean {
  const scheme = URL_SCHEME.exec(urlTemplate)?.[1];
  return scheme === undefined || LINKIFIER_SCHEMES.has(scheme.toLowerCase());
}

export class LinkifierError extends Error {
  override name = 'LinkifierError';
}

interface CompiledCore {
  regex: RE2JS;
  size: number;
  template: Template;
  groupNames: string[];
}

/** Upstream only links a match that stands apart from surrounding words: group 2 is the user's pattern. */
function boundedPattern(source: string): string {
  return `(^|\\s|\\x{85}|\\pZ|['"\\(,:<])(${source})($|[^\\pL\\pN])`;
}

// Keyed by pattern and template: every message render reuses the compiled engines.
const cache = new Map<string, CompiledCore | LinkifierError>();

function compileCore(pattern: string, urlTemplate: string): CompiledCore {
  let userRegex: RE2JS;
  try {
    userRegex = RE2JS.compile(pattern);
  } catch (error) {
    throw new LinkifierError(`Bad regular expression: ${(error as Error).message}`);
  }
  const size = userRegex.programSize();
  if (size > MAX_LINKIFIER_PROGRAM_SIZE) throw new LinkifierError('Bad regular expression: pattern too large - compile failed');
  const variables = templateVariables(urlTemplate);
  if (variables === undefined) throw new LinkifierError('Invalid URL template.');
  const groupNames = Object.keys(userRegex.namedGroups());
  const missing = variables.find((name) => !groupNames.includes(name));
  if (missing !== undefined) {
    throw new LinkifierError(`Group '${missing}' in URL template is not present in linkifier pattern.`);
  }
  return { regex: RE2JS.compile(boundedPattern(pattern)), size, template: parseTemplate(urlTemplate), groupNames };
}

function cachedCore(pattern: string, urlTemplate: string): CompiledCore {
  const key = `${pattern}\u0000${urlTemplate}`;
  let entry = cache.get(key);
  if (entry === undefined) {
    try {
      entry = compileCore(pattern, urlTemplate);
    } catch (error) {
      if (!(error instanceof LinkifierError)) throw error;
      entry = error;
    }
    cache.set(key, entry);
  }
  if (entry instanceof LinkifierError) throw entry;
  return entry;
}

function findMatches(core: CompiledCore, text: string): LinkifierMatch[] {
  const found: LinkifierMatch[] = [];
  const matcher = core.regex.matcher(text);
  let from = 0;
  while (from <= text.length && matcher.find(from)) {
    const start = matcher.start(2);
    const end = matcher.end(2);
    // The trailing boundary character may be the leading boundary of the next match.
    from = Math.max(end, matcher.start() + 1);
    if (start === end) continue;
    const values: Record<string, string> = {};
    for (const name of core.groupNames) {
      const value = matcher.group(name);
      if (value !== null) values[name] = value;
    }
    const url = core.template.expand(values);
    // Not a link at all: the text stays text, free for another linkifier or a bare URL.
    if (!isLinkifierUrl(url)) continue;
    found.push({ start, end, text: text.slice(start, end), url });
  }
  return found;
}

export function compileLinkifier(l: LinkifierDefinition): CompiledLinkifier {
  const core = cachedCore(l.pattern, l.url_template);
  return { id: l.id, pattern: l.pattern, url_template: l.url_template, size: core.size, matches: (text) => findMatches(core, text) };
}

/**
 * The realm's linkifiers that compile, in order, while their sizes fit the realm's bound
 * together (the API refuses more; an imported realm may hold more). A broken or excess stored
 * one links nothing rather than failing every send.
 */
export function usableLinkifiers(linkifiers: ReadonlyArray<LinkifierDefinition>): CompiledLinkifier[] {
  const usable: CompiledLinkifier[] = [];
  let total = 0;
  for (const linkifier of linkifiers) {
    try {
      const compiled = compileLinkifier(linkifier);
      if (total + compiled.size > MAX_REALM_LINKIFIERS_PROGRAM_SIZE) continue;
      total += compiled.size;
      usable.push(compiled);
    } catch (error) {
      if (!(error instanceof LinkifierError)) throw error;
    }
  }
  return usable;
}

interface Candidate {
  match: LinkifierMatch;
  /** Lower wins when two matches start at the same place: the linkifier's position in the list. */
  precedence: number;
}

function candidatesIn(text: string, linkifiers: ReadonlyArray<CompiledLinkifier>): Candidate[] {
  return linkifiers.flatMap((linkifier, precedence) => linkifier.matches(text).map((match) => ({ match, precedence })));
}

/**
 * Matches of all linkifiers in `text`, left to right without overlaps; where two start at the same
 * place the earlier linkifier in the list wins, as upstream orders them.
 */
export function linkifierMatches(text: string, linkifiers: ReadonlyArray<CompiledLinkifier>): LinkifierMatch[] {
  return linkifiers.length === 0 ? [] : pickNonOverlapping(candidatesIn(text, linkifiers));
}

function pickNonOverlapping(candidates: Candidate[]): LinkifierMatch[] {
  candidates.sort((a, b) => a.match.start - b.match.start || a.precedence - b.precedence);
  const chosen: LinkifierMatch[] = [];
  let reached = 0;
  for (const { match } of candidates) {
    if (match.start < reached) continue;
    chosen.push(match);
    reached = match.end;
  }
  return chosen;
}

const BARE_URL = /(?:https?:\/\/|www\.)[^\s<>"]+/g;

/** A bare URL ends before trailing sentence punctuation, and before a `)` that closes nothing in it. */
function trimUrl(url: string): string {
  let trimmed = url.replace(/[.,;:!?'"]+$/, '');
  while (trimmed.endsWith(')') && trimmed.split('(').length < trimmed.split(')').length) {
    trimmed = trimmed.slice(0, -1).replace(/[.,;:!?'"]+$/, '');
  }
  return trimmed;
}

type TopicLinks = ReadonlyArray<Readonly<{ text: string; url: string }>>;

/**
 * The last topic's links, for the same list of linkifiers: a page of a topic and a message's
 * events ask for one topic many times in a row. Frozen, since every caller shares it.
 */
let lastTopicLinks: { topic: string; linkifiers: ReadonlyArray<LinkifierDefinition>; links: TopicLinks } | null = null;

/** The links a topic name carries: linkifier matches and bare URLs, in reading order (upstream `topic_links`). */
export function topicLinks(topic: string, linkifiers: ReadonlyArray<LinkifierDefinition>): TopicLinks {
  if (lastTopicLinks?.topic === topic && lastTopicLinks.linkifiers === linkifiers) return lastTopicLinks.links;
  const links = Object.freeze(findTopicLinks(topic, linkifiers).map((link) => Object.freeze(link)));
  lastTopicLinks = { topic, linkifiers, links };
  return links;
}

function findTopicLinks(topic: string, linkifiers: ReadonlyArray<LinkifierDefinition>): Array<{ text: string; url: string }> {
  const compiled = usableLinkifiers(linkifiers);
  const candidates = candidatesIn(topic, compiled);
  // Bare URLs come after every linkifier.
  for (const found of topic.matchAll(BARE_URL)) {
    const text = trimUrl(found[0]);
    const url = text.startsWith('www.') ? `https://${text}` : text;
    candidates.push({ match: { start: found.index, end: found.index + text.length, text, url }, precedence: compiled.length });
  }
  return pickNonOverlapping(candidates).map(({ text, url }) => ({ text, url }));
}
