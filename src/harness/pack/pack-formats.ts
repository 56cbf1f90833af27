/**
 * What `pack` prints: the bundle as Markdown, XML or JSON, in the order pack-order.ts gives, and
 * on stderr what was left out and why, from the compilation's trace. A format is a layout: a
 * head, each item as it is printed, a separator and a tail. `pack` plans with it: each candidate
 * keeps the pool's text and is priced as its item as printed (PricedPool), so the bundle the
 * strategy chooses is priced in the format's own tokens, and the printed whole is counted again
 * before it is given (pack-run.ts). Each file form's text starts with its `File:` line (the pool's
 * forms carry their path); the layouts put the path in their own markup and show the body under
 * it.
 */
import type { ContextCandidate } from '../../compiler/index.js';
import { parseFormId, shownPath } from '../ingest/index.js';
import { INGESTED_TASK_ID } from '../vocabulary.js';
import type { Ordered } from './pack-order.js';

export const PACK_FORMATS = ['md', 'xml', 'json'] as const;
export type PackFormat = (typeof PACK_FORMATS)[number];

/** What the head of a printed bundle says. */
export interface PackHead {
  readonly budget: number;
  readonly strategy: string;
  /** The bundle's hash: 64 hex digits (a placeholder of as many while planning). */
  readonly bundleHash: string;
  /** How far from the optimum the bundle may be, in percent, when the strategy says (JSON only). */
  readonly within?: number | undefined;
}

interface Shown {
  readonly path: string | null;
  readonly form: string;
  readonly tokens: number;
  readonly body: string;
}

const FENCE_LANG: Readonly<Record<string, string>> = {
  ts: 'ts',
  mts: 'ts',
  cts: 'ts',
  tsx: 'tsx',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  jsx: 'jsx',
  py: 'python',
  go: 'go',
  rs: 'rust',
  md: 'md',
  json: 'json',
  yml: 'yaml',
  yaml: 'yaml',
  sh: 'sh',
};

function shown(c: ContextCandidate): Shown {
  const at = parseFormId(c.candidate_id);
  if (c.candidate_id === INGESTED_TASK_ID || at === null)
    return { path: null, form: c.representation_id, tokens: c.token_count, body: c.content };
  const newline = c.content.indexOf('\n');
  return {
    path: at.path,
    form: at.form,
    tokens: c.token_count,
    body: at.form === 'reference' ? c.content : newline < 0 ? '' : c.content.slice(newline + 1),
  };
}

/** A fence longer than any run of backticks in the body, so that no body can close it. */
function fence(body: string): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

function markdownItem(c: ContextCandidate): string {
  const s = shown(c);
  if (s.path === null) return `## Task\n\n${s.body}`;
  const heading = `## ${shownPath(s.path)} (${s.form}, ${s.tokens} tokens)\n\n`;
  if (s.form === 'reference') return `${heading}${s.body}`;
  const ext = s.path.slice(s.path.lastIndexOf('.') + 1).toLowerCase();
  const f = fence(s.body);
  return `${heading}${f}${s.form === 'full' ? (FENCE_LANG[ext] ?? '') : ''}\n${s.body}\n${f}`;
}

/** Characters XML 1.0 cannot hold at all, in text or in CDATA: dropped. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xmlAttr = (s: string): string => s.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => XML[c] as string);
/**
 * A body as CDATA: the text as it is, which a model reads as code, where entities would turn every
 * `<` into `&lt;`. The one sequence CDATA cannot hold, `]]>`, is split across two sections.
 */
const cdata = (s: string): string =>
  `<![CDATA[\n${s.replace(NOT_XML, '').replaceAll(']]>', ']]]]><![CDATA[>')}\n]]>`;

function xmlItem(c: ContextCandidate): string {
  const s = shown(c);
  if (s.path === null) return `<task>${cdata(s.body)}</task>`;
  return `<file path="${xmlAttr(shownPath(s.path))}" form="${s.form}" tokens="${s.tokens}">${cdata(s.body)}</file>`;
}

/**
 * A JSON item, laid out as it sits in the printed array: two levels in. A file carries its `rank`
 * in the relevance order (pack-order.ts) and its `chance`, the relevance of the form printed; the
 * task carries null for both.
 */
function jsonItem(c: ContextCandidate, rank: number | null): string {
  const s = shown(c);
  const file = s.path !== null;
  const item = {
    id: c.candidate_id,
    path: s.path,
    form: s.form,
    tokens: s.tokens,
    rank: file ? rank : null,
    chance: file ? c.relevance : null,
    content: s.body,
  };
  return `    ${JSON.stringify(item, null, 2).replaceAll('\n', '\n    ')}`;
}

interface Layout {
  readonly head: (h: PackHead) => string;
  /** An item as printed; `rank` is the file's place in the relevance order (null for the task). */
  readonly item: (c: ContextCandidate, rank: number | null) => string;
  readonly separator: string;
  readonly tail: string;
}

const LAYOUTS: Readonly<Record<PackFormat, Layout>> = {
  md: {
    head: (h) => `# Context for a budget of ${h.budget} tokens (${h.strategy})\n\n`,
    item: markdownItem,
    separator: '\n\n',
    tail: '\n',
  },
  xml: {
    head: (h) => `<context budget="${h.budget}" strategy="${xmlAttr(h.strategy)}" hash="${h.bundleHash}">\n`,
    item: xmlItem,
    separator: '\n',
    tail: '\n</context>\n',
  },
  json: {
    head: (h) =>
      `{\n  "strategy": ${JSON.stringify(h.strategy)},\n  "budget": ${h.budget},\n  "bundle_hash": "${h.bundleHash}",\n${h.within === undefined ? '' : `  "within_percent": ${h.within},\n`}  "items": [\n`,
    item: jsonItem,
    separator: ',\n',
    tail: '\n  ]\n}\n',
  },
};

/**
 * A file's rank while the pool is priced, before any bundle has an order: o200k holds every whole
 * number below 1,000 in one token, so a bundle's real ranks print at this price (and the printed
 * whole is counted again, pack-run.ts).
 */
const PRICED_RANK = 1;

/**
 * The pool priced as the format prints it. A candidate's text stays the pool's form, the same in
 * every format, so that a strategy reading the text (bm25's index, the relevance) chooses the same
 * files whatever the format; only its price is its printed item's tokens (heading and fence, XML
 * element, escaped JSON object), so the bundle is planned in the format's own tokens and a wrapper
 * decides a file only at the margin. A poorer form of a file that costs as much as its full text,
 * or more, is no candidate: at the same price the full text says more, so the tie goes to it. The
 * items are printed from the pool's candidates.
 */
export class PricedPool {
  /** The pool's candidates, each priced as its printed item. */
  readonly candidates: readonly ContextCandidate[];
  private readonly source: ReadonlyMap<string, ContextCandidate>;
  private readonly layout: Layout;

  constructor(pool: readonly ContextCandidate[], format: PackFormat, count: (text: string) => number) {
    this.layout = LAYOUTS[format];
    this.source = new Map(pool.map((c) => [c.candidate_id, c]));
    const priced = pool.map((c) => {
      const file = parseFormId(c.candidate_id) !== null;
      return { ...c, token_count: count(this.layout.item(c, file ? PRICED_RANK : null)) };
    });
    const full = new Map(
      priced.filter((c) => c.representation_id === 'full').map((c) => [c.content_identity, c.token_count]),
    );
    this.candidates = priced.filter(
      (c) =>
        c.representation_id === 'full' ||
        parseFormId(c.candidate_id) === null ||
        c.token_count < (full.get(c.content_identity) ?? Number.POSITIVE_INFINITY),
    );
  }

  /** The text of a bundle of these candidates, in the order given, each file with its rank. */
  print(head: PackHead, bundle: Ordered): string {
    const items = bundle.items.map((c) =>
      this.layout.item(
        this.source.get(c.candidate_id) as ContextCandidate,
        bundle.rank.get(c.candidate_id) ?? null,
      ),
    );
    return `${this.layout.head(head)}${items.join(this.layout.separator)}${this.layout.tail}`;
  }
}

/** The text a format adds around its items, whatever they are: its head and its tail. */
export const frameOf = (head: PackHead, format: PackFormat): string =>
  LAYOUTS[format].head(head) + LAYOUTS[format].tail;

interface Entry {
  readonly candidate_id: string;
  readonly content_identity?: string;
  readonly decision: string;
  readonly reason_detail?: string;
}

/** A chance as a person reads it: a percentage to two significant digits, or under 0.01%. */
const chanceText = (p: number): string => (p < 0.0001 ? '<0.01%' : `${Number((100 * p).toPrecision(2))}%`);

/**
 * The files of the pool with no form admitted, most relevant first (ties by path), each with the
 * decision on its default form: `path (chance 1.2%): DECISION: detail`, the chance that the task
 * needs the file (its full text's relevance, relevance-model.ts). At most `limit` lines,
 * then how many more.
 */
export function leftOut(
  candidates: readonly ContextCandidate[],
  entries: readonly Entry[],
  admitted: ReadonlySet<string>,
  limit = 20,
): string[] {
  const identities = new Set(
    candidates.filter((c) => admitted.has(c.candidate_id)).map((c) => c.content_identity),
  );
  const byId = new Map(entries.map((e) => [e.candidate_id, e]));
  const out = candidates
    .filter(
      (c) => c.is_default_form && c.candidate_id !== INGESTED_TASK_ID && !identities.has(c.content_identity),
    )
    .sort((a, b) => b.relevance - a.relevance || (a.content_identity < b.content_identity ? -1 : 1));
  const lines = out.slice(0, limit).map((c) => {
    const e = byId.get(c.candidate_id);
    const why =
      e === undefined ? 'no trace entry' : `${e.decision}${e.reason_detail ? `: ${e.reason_detail}` : ''}`;
    return `${shownPath(c.content_identity)} (chance ${chanceText(c.relevance)}): ${why}`;
  });
  if (out.length > limit) lines.push(`... and ${out.length - limit} more files, less relevant`);
  return lines;
}
