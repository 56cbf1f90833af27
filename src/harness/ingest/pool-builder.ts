/**
 * One repository state (a commit's tree, or a working tree) as a pool of candidates: the task, and
 * each text file as one content identity in up to three forms. docs/real-data.md explains every
 * choice; the short of it:
 *
 * - forms: `full` (the file, form rank 3, the default form), `outline` (declarations and
 *   signatures, rank 2, for the languages with a grammar), `reference` (the path and the first doc
 *   line, rank 0). Each form's text starts with the file's path, since the rendered bundle carries
 *   no labels of its own.
 * - token counts: the form's text in o200k tokens (`token_source: "o200k"`), or the tokenizer
 *   the caller names.
 * - requirement: the task MANDATORY; a file the caller requires REQUIRED; every other file
 *   DISCRETIONARY, ranked by its chance alone.
 * - relevance: the chance that the task needs the file (relevance-model.ts), times the share of
 *   the full text's tokens the form carries.
 * - gates: scope is the repository (every file in scope); freshness is true for every file, since
 *   a tree is its own present, and the reason carries the file's last change; authority is
 *   withheld from generated and vendored paths.
 * - no `depends_on` between files: a dependency binds one form of another file, and with one form
 *   per content that would forbid the other file in full beside this one, the very bundle a task
 *   touching both needs. The import graph is a signal of relevance instead (relevance-features.ts).
 */
import { type ContextCandidate, SCHEMA } from '../../compiler/index.js';
import { countTokens } from '../corpus/index.js';
import type { Tokenizer } from '../types.js';
import { INGESTED_TASK_ID } from '../vocabulary.js';
import type { PathClass } from './ingest-types.js';
import { rounded } from './relevance/relevance-model.js';

/** A file of the state, read and classified; its outline and last change found by the caller. */
export interface PoolFile {
  readonly path: string;
  readonly blob: string;
  readonly text: string;
  readonly cls: PathClass;
  /** The outline (outline.ts), '' for a file of a grammar with no declarations, null without a grammar. */
  readonly outline: string | null;
  /** Unix seconds of the file's last change before this state, null when unknown. */
  readonly lastChange: number | null;
  /** The chance, in [0, 1], that the task needs the file (relevance-model.ts). */
  readonly relevance: number;
  /** The signals that chance was computed from (relevance-features.ts), for fitting the model. */
  readonly features?: Float64Array;
}

/**
 * What sees each case's pool files as they are built, and the candidates made of them (their
 * token counts): scripts/fit-relevance.mjs.
 */
export type Observer = (
  caseName: string,
  files: readonly PoolFile[],
  pool: readonly ContextCandidate[],
) => void;

export interface PoolSpec {
  readonly task: string;
  readonly files: readonly PoolFile[];
  /** Paths the caller requires (`pack --require`). */
  readonly required?: ReadonlySet<string>;
  /** The repository's name, the scope. */
  readonly scope: string;
  /** Where the state is: a commit id, or `working tree`. */
  readonly at: string;
  /** What counts a form's tokens, and names them in `token_source` (default o200k). */
  readonly tokenizer?: Tokenizer;
  /**
   * Tokens of a form's text, given a key naming the blob, the path and the form: the caller's,
   * so that a version held by many cases is counted once (in `tokenizer`'s tokens). Counted
   * directly when absent.
   */
  readonly tokens?: (key: string, text: string) => number;
  /**
   * A file's form texts, given a key naming the blob and the path, and how to make them: the
   * caller's, so that a version held by many cases has its texts built once (and the same strings
   * reach the writer, which compares them). Made afresh when absent.
   */
  readonly forms?: (key: string, make: () => FormTexts) => FormTexts;
}

/** A file's forms and their texts, in pool order. */
export type FormTexts = readonly (readonly [Form, string])[];

export type Form = 'full' | 'outline' | 'reference';
const FORM_RANK: Readonly<Record<Form, number>> = { reference: 0, outline: 2, full: 3 };

/**
 * Characters a path may hold that a reader would take as structure or not see at all: controls
 * (a line break would open a new section of a prompt, an escape sequence would drive a terminal),
 * line and paragraph separators, bidirectional and zero-width format characters, and the quote
 * and backslash of the quoting itself.
 */
const UNSAFE_IN_PATH = /["\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const ESCAPES = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['"', '\\"'],
  ['\\', '\\\\'],
]);

/**
 * A path as every text ctxbench prints shows it: as it is when it holds none of UNSAFE_IN_PATH,
 * else in double quotes with those characters escaped (`\n`, `\"`, `\\`, `\u{202e}`), as git
 * quotes such paths, so that no file name can open a line or a section of its own.
 */
export function shownPath(p: string): string {
  if (!UNSAFE_IN_PATH.test(p)) return p;
  const escaped = [...p]
    .map(
      (c) => ESCAPES.get(c) ?? (UNSAFE_IN_PATH.test(c) ? `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}` : c),
    )
    .join('');
  return `"${escaped}"`;
}

/** A file form's candidate id: the path and the form, so that the id names the file. */
export const formId = (path: string, form: Form): string => `${path}#${form}`;

/** The path and form a file candidate's id names, or null for the task. */
export function parseFormId(id: string): { path: string; form: Form } | null {
  const at = id.lastIndexOf('#');
  if (at < 0) return null;
  const form = id.slice(at + 1);
  return form === 'full' || form === 'outline' || form === 'reference'
    ? { path: id.slice(0, at), form }
    : null;
}

const COMMENT_OPENER = /^(?:\/\/+!?|\/\*+!?|\*+(?!\/)|#+|"""|'''|--|;+)/;
const COMMENT_CLOSERS = ['*/', '"""', "'''"];
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * What a trimmed comment line says, without its opener and closer, or null for a line that is not
 * a comment (or holds a line break inside). Not one regular expression with lazy and greedy runs
 * around the text: on a long line of spaces that backtracks in time quadratic in the line, and a
 * file's first line is anybody's to write.
 */
function commentText(line: string): string | null {
  const opener = COMMENT_OPENER.exec(line);
  if (opener === null) return null;
  let said = line.slice(opener[0].length).trim();
  const closer = COMMENT_CLOSERS.find((c) => said.endsWith(c));
  if (closer !== undefined) said = said.slice(0, -closer.length).trim();
  return LINE_BREAK.test(said) ? null : said;
}

/**
 * The first line of documentation in a file's head: a comment or docstring line, or a Markdown
 * heading, within the first 40 lines; shebangs, licence and copyright lines, and markers alone
 * skipped. '' when there is none.
 */
export function firstDocLine(text: string): string {
  for (const raw of text.split('\n', 40)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#!')) continue;
    const said = commentText(line);
    if (said === null) return '';
    if (said === '' || /^(copyright|license|licence|spdx-license|@license|eslint|prettier|biome)/i.test(said))
      continue;
    return said.length > 160 ? `${said.slice(0, 157)}...` : said;
  }
  return '';
}

const ISO_DAY = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

type Own = Pick<
  ContextCandidate,
  | 'candidate_id'
  | 'content_identity'
  | 'representation_id'
  | 'form_rank'
  | 'source_kind'
  | 'source_ref'
  | 'kind'
  | 'content'
  | 'requirement'
  | 'order_role'
  | 'freshness_reason'
  | 'authority_eligible'
  | 'authority_reason'
  | 'relevance'
  | 'is_default_form'
>;

/** A candidate of the pool: what every one shares (no floor, in scope, fresh, no dependency or group), and its own fields. */
const candidate = (own: Own, spec: PoolSpec, tokens: number): ContextCandidate => ({
  schema_version: SCHEMA.candidate,
  min_rank: 0,
  token_count: tokens,
  token_source: spec.tokenizer ?? 'o200k',
  scope_eligible: true,
  scope_reason: `in repository ${spec.scope}`,
  freshness_eligible: true,
  depends_on: [],
  group_id: null,
  group_required: false,
  coverage_keys: [],
  ...own,
});

/** The texts of a file's forms: what its blob, path and outline decide. */
export function formTexts(f: Pick<PoolFile, 'path' | 'text' | 'outline'>): FormTexts {
  const body = f.text.endsWith('\n') ? f.text.slice(0, -1) : f.text;
  const doc = firstDocLine(f.text);
  const shown = shownPath(f.path);
  const texts: [Form, string][] = [[`full`, `File: ${shown}\n${body}`]];
  if (f.outline !== null && f.outline !== '')
    texts.push(['outline', `File: ${shown} (outline)\n${f.outline}`]);
  texts.push(['reference', `File: ${shown}${doc === '' ? '' : ` - ${doc}`}`]);
  return texts;
}

function fileCandidates(f: PoolFile, spec: PoolSpec): ContextCandidate[] {
  // No file is PREFERRED for being named: the chance already weighs how the task names it, and a
  // class above it would put a named file's outline before a likelier file whole (issue 49).
  const requirement = spec.required?.has(f.path) ? 'REQUIRED' : 'DISCRETIONARY';
  const key = `${f.blob}:${f.path}`;
  const texts = spec.forms === undefined ? formTexts(f) : spec.forms(key, () => formTexts(f));
  const fresh =
    f.lastChange === null ? `as at ${spec.at}` : `as at ${spec.at}; last changed ${ISO_DAY(f.lastChange)}`;
  const withheld = f.cls.generated ? 'generated file' : f.cls.vendored ? 'vendored file' : null;
  const count = (form: Form, content: string): number =>
    spec.tokens === undefined
      ? countTokens(spec.tokenizer ?? 'o200k', content)
      : spec.tokens(`${key}:${form}`, content);
  const tokens = texts.map(([form, content]) => count(form, content));
  const full = Math.max(1, tokens[0] as number);
  return texts.map(([form, content], i) =>
    candidate(
      {
        candidate_id: formId(f.path, form),
        content_identity: f.path,
        representation_id: form,
        form_rank: FORM_RANK[form],
        source_kind: 'repository',
        source_ref: `${f.path}@${f.blob.slice(0, 12)}`,
        kind: f.cls.test ? 'test' : f.cls.source ? 'source' : 'file',
        content,
        requirement,
        order_role: f.cls.source && !f.cls.test ? 'evidence' : 'support',
        freshness_reason: fresh,
        authority_eligible: withheld === null,
        authority_reason: withheld ?? 'tracked file',
        relevance: rounded(f.relevance * formShare(tokens[i] as number, full)),
        is_default_form: form === 'full',
      },
      spec,
      tokens[i] as number,
    ),
  );
}

/**
 * What a form earns of its file's chance: the share of the full text's tokens it carries (1 for
 * the full text). The compiler's objective is then the expected share of the needed files' text a
 * bundle holds, and every form of a file earns the same per token: an outline fills room where
 * the full text does not fit, and a list of paths earns next to nothing.
 */
const formShare = (tokens: number, fullTokens: number): number => Math.min(1, tokens / fullTokens);

/** The pool: the task first, then each file's forms, files in path order. */
export function buildPool(spec: PoolSpec): ContextCandidate[] {
  const task = candidate(
    {
      candidate_id: INGESTED_TASK_ID,
      content_identity: INGESTED_TASK_ID,
      representation_id: 'full',
      form_rank: 3,
      source_kind: 'task',
      source_ref: spec.at,
      kind: 'task',
      content: spec.task,
      requirement: 'MANDATORY',
      order_role: 'task',
      freshness_reason: `as at ${spec.at}`,
      authority_eligible: true,
      authority_reason: 'the task',
      relevance: 1,
      is_default_form: true,
    },
    spec,
    countTokens(spec.tokenizer ?? 'o200k', spec.task),
  );
  const files = [...spec.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return [task, ...files.flatMap((f) => fileCandidates(f, spec))];
}
