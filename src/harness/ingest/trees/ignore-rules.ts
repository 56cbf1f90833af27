/**
 * Gitignore patterns, read and matched as git reads and matches them (`dir.c`, `wildmatch.c`), in
 * time linear in the path for each pattern. The `ignore` package and git itself match by
 * backtracking, so a pattern of many stars beside a long name takes exponential time: one line of
 * an untrusted `.gitignore` could stop `pack`, or the MCP server serving it. Here a pattern is a
 * small automaton run over the path with a set of states, never a backtracking search.
 */
import { InputError } from '../../errors.js';
import { compile, type Pattern, run } from './wildmatch.js';

/** Longer patterns are refused, naming their file and line: git's own paths stop at 4,096 bytes. */
export const MAX_PATTERN = 4096;

/**
 * What matching may cost one listing, in steps (a step: one pattern state looked at for one
 * character). Each match is linear in its path, but a tree of long paths under files of long
 * patterns multiplies them: past this the rules are refused, naming the one being matched.
 * Real repositories spend a few million.
 */
export const MATCH_STEPS = 2_000_000_000;

/** The steps left to the rules of one listing, shared by every rule it reads. */
export class MatchBudget {
  private readonly steps: number;
  private left: number;
  constructor(steps = MATCH_STEPS) {
    this.steps = steps;
    this.left = steps;
  }

  charge(steps: number, rule: Rule): void {
    this.left -= steps;
    if (this.left < 0)
      throw new InputError(
        rule.source,
        `matching the ignore rules against the tree's paths took more than ${this.steps.toLocaleString('en-US')} steps, the most one listing may take; this rule was being matched`,
      );
  }
}

/** One line of a gitignore file, read. */
export interface Rule {
  readonly negated: boolean;
  /** A trailing `/`: the rule matches folders only. */
  readonly foldersOnly: boolean;
  /** No `/` but a trailing one: matched against an entry's name at any depth, not its path. */
  readonly anywhere: boolean;
  readonly pattern: Pattern;
  /** Its file and line, `file:line`, for errors. */
  readonly source: string;
  /** What its listing may still spend on matching. */
  readonly budget: MatchBudget;
  /** The pattern when it has no wildcard: compared as a string, at the cost of one step. */
  readonly literal: string | null;
}

/** The line without its trailing spaces, but for one a backslash keeps (git's trim_trailing_spaces). */
function trimTrailing(line: string): string {
  let end = line.length;
  let cut = -1;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === ' ') {
      if (cut < 0) cut = i;
    } else {
      cut = -1;
      if (ch === '\\') i++;
    }
  }
  if (cut >= 0) end = cut;
  return line.slice(0, end);
}

/**
 * The rules of a gitignore file's text; `source` names it in an error. Rules read for one listing
 * share one `budget`.
 */
export function parseRules(text: string, source: string, budget: MatchBudget): Rule[] {
  const rules: Rule[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (const [k, raw] of lines.entries()) {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith('#')) continue;
    line = trimTrailing(line);
    if (line.length > MAX_PATTERN)
      throw new InputError(
        `${source}:${k + 1}`,
        `a pattern of ${line.length} characters (at most ${MAX_PATTERN}): too long to match`,
      );
    const negated = line.startsWith('!');
    let body = negated ? line.slice(1) : line;
    const foldersOnly = body.endsWith('/');
    if (foldersOnly) body = body.slice(0, -1);
    if (body === '') continue;
    const anywhere = !body.includes('/');
    if (body.startsWith('/')) body = body.slice(1);
    const pattern = compile(body);
    const literal = pattern?.every((t) => t.k === 'char')
      ? pattern.map((t) => (t as { c: string }).c).join('')
      : null;
    rules.push({ negated, foldersOnly, anywhere, pattern, source: `${source}:${k + 1}`, budget, literal });
  }
  return rules;
}

/**
 * What the last rule matching `entry` (a path relative to the rules' folder) says: 'ignored',
 * 'kept' (a `!` rule), or null when none matches.
 */
export function decide(rules: readonly Rule[], entry: string, isFolder: boolean): 'ignored' | 'kept' | null {
  const name = entry.slice(entry.lastIndexOf('/') + 1);
  for (let k = rules.length - 1; k >= 0; k--) {
    const r = rules[k] as Rule;
    if (r.pattern === null || (r.foldersOnly && !isFolder)) continue;
    const text = r.anywhere ? name : entry;
    let matched: boolean;
    if (r.literal !== null) {
      r.budget.charge(1, r);
      matched = r.literal === text;
    } else matched = run(r.pattern, text, (steps) => r.budget.charge(steps, r));
    if (matched) return r.negated ? 'kept' : 'ignored';
  }
  return null;
}

/**
 * Whether a path is ignored by one list of rules read as git reads a single list: the path, or
 * any folder above it, matched (nothing below an ignored folder can be brought back).
 */
export function ignores(rules: readonly Rule[], file: string): boolean {
  const parts = file.split('/');
  for (let k = 1; k < parts.length; k++)
    if (decide(rules, parts.slice(0, k).join('/'), true) === 'ignored') return true;
  return decide(rules, file, false) === 'ignored';
}
