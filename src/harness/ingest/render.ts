/**
 * What `pack` prints: the bundle as Markdown, XML or JSON, in bundle order, and on stderr what was
 * left out and why, from the compilation's trace. Each file form's text starts with its `File:`
 * line (the rendered bundle carries no labels); the outputs put the path in their own markup and
 * show the body under it.
 */
import type { ContextCandidate } from '../../compiler/index.js';
import { INGESTED_TASK_ID } from '../vocabulary.js';
import { parseFormId, shownPath } from './pool.js';

export const PACK_FORMATS = ['md', 'xml', 'json'] as const;
export type PackFormat = (typeof PACK_FORMATS)[number];

export interface PackedBundle {
  readonly task: string;
  readonly budget: number;
  readonly renderedTokens: number;
  readonly bundleHash: string;
  readonly strategy: string;
  /** In bundle order. */
  readonly items: readonly ContextCandidate[];
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

function markdown(b: PackedBundle): string {
  const out = [
    `# Context: ${b.items.length} items, ${b.renderedTokens} of ${b.budget} tokens (${b.strategy})`,
    '',
  ];
  for (const s of b.items.map(shown)) {
    if (s.path === null) {
      out.push('## Task', '', s.body, '');
      continue;
    }
    out.push(`## ${shownPath(s.path)} (${s.form}, ${s.tokens} tokens)`, '');
    if (s.form === 'reference') {
      out.push(s.body, '');
      continue;
    }
    const ext = s.path.slice(s.path.lastIndexOf('.') + 1).toLowerCase();
    const f = fence(s.body);
    out.push(`${f}${s.form === 'full' ? (FENCE_LANG[ext] ?? '') : ''}`, s.body, f, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

const XML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xmlText = (s: string): string =>
  // Characters XML 1.0 cannot hold at all are dropped; the rest escaped.
  s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"]/g, (c) => XML[c] as string);

function xml(b: PackedBundle): string {
  const out = [
    `<context items="${b.items.length}" tokens="${b.renderedTokens}" budget="${b.budget}" strategy="${xmlText(b.strategy)}" hash="${b.bundleHash}">`,
  ];
  for (const s of b.items.map(shown)) {
    if (s.path === null) out.push(`<task>\n${xmlText(s.body)}\n</task>`);
    else
      out.push(
        `<file path="${xmlText(shownPath(s.path))}" form="${s.form}" tokens="${s.tokens}">\n${xmlText(s.body)}\n</file>`,
      );
  }
  out.push('</context>');
  return `${out.join('\n')}\n`;
}

function json(b: PackedBundle): string {
  return `${JSON.stringify(
    {
      task: b.task,
      strategy: b.strategy,
      budget: b.budget,
      rendered_tokens: b.renderedTokens,
      bundle_hash: b.bundleHash,
      items: b.items.map((c) => {
        const s = shown(c);
        return { id: c.candidate_id, path: s.path, form: s.form, tokens: s.tokens, content: s.body };
      }),
    },
    null,
    2,
  )}\n`;
}

export function renderPack(b: PackedBundle, format: PackFormat): string {
  return format === 'md' ? markdown(b) : format === 'xml' ? xml(b) : json(b);
}

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
