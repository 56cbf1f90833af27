/**
 * Gitignore patterns, read and matched as git reads and matches them (`dir.c`, `wildmatch.c`), in
 * time linear in the path for each pattern. The `ignore` package and git itself match by
 * backtracking, so a pattern of many stars beside a long name takes exponential time: one line of
 * an untrusted `.gitignore` could stop `pack`, or the MCP server serving it. Here a pattern is a
 * small automaton run over the path with a set of states, never a backtracking search.
 */
import { InputError } from '../errors.js';

/** Longer patterns are refused, naming their file and line: git's own paths stop at 4,096 bytes. */
export const MAX_PATTERN = 4096;

type Token =
  | { readonly k: 'char'; readonly c: string }
  /** `?`: one character but `/`. */
  | { readonly k: 'one' }
  | { readonly k: 'set'; readonly negated: boolean; readonly test: (c: string) => boolean }
  /** `*`: any run without `/`. */
  | { readonly k: 'star' }
  /** `**` at a folder boundary: any run, `/` included; `dirs` also skips the `/` after it. */
  | { readonly k: 'all'; readonly dirs: boolean };

/** One compiled pattern; null when git would never match it (an unclosed `[`, a final `\`). */
type Pattern = readonly Token[] | null;

const code = (c: string): number => c.codePointAt(0) ?? -1;
const within = (c: string, lo: number, hi: number): boolean => code(c) >= lo && code(c) <= hi;

/** The classes wildmatch knows, over ASCII as in the C locale git matches in. */
const POSIX: Readonly<Record<string, (c: string) => boolean>> = {
  alnum: (c) => /^[A-Za-z0-9]$/.test(c),
  alpha: (c) => /^[A-Za-z]$/.test(c),
  blank: (c) => c === ' ' || c === '\t',
  cntrl: (c) => within(c, 0, 0x1f) || code(c) === 0x7f,
  digit: (c) => /^[0-9]$/.test(c),
  graph: (c) => within(c, 0x21, 0x7e),
  lower: (c) => /^[a-z]$/.test(c),
  print: (c) => within(c, 0x20, 0x7e),
  punct: (c) => within(c, 0x21, 0x7e) && !/^[A-Za-z0-9]$/.test(c),
  space: (c) => c === ' ' || within(c, 0x09, 0x0d),
  upper: (c) => /^[A-Z]$/.test(c),
  xdigit: (c) => /^[0-9A-Fa-f]$/.test(c),
};

/** A bracket expression from `p[at]` (just past `[`): its token and the index past its `]`, or null. */
function bracket(p: readonly string[], at: number): { token: Token; next: number } | null {
  let i = at;
  let ch = p[i];
  if (ch === '^') ch = '!';
  const negated = ch === '!';
  if (negated) ch = p[++i];
  const members: ((c: string) => boolean)[] = [];
  let prev: string | undefined;
  // As wildmatch's do-while: the first character is a member even when it is `]`.
  do {
    if (ch === undefined) return null;
    if (ch === '\\') {
      const lit = p[++i];
      if (lit === undefined) return null;
      members.push((c) => c === lit);
      ch = lit;
    } else if (ch === '-' && prev !== undefined && p[i + 1] !== undefined && p[i + 1] !== ']') {
      let hi = p[++i] as string;
      if (hi === '\\') {
        const lit = p[++i];
        if (lit === undefined) return null;
        hi = lit;
      }
      const lo = prev;
      members.push((c) => c <= hi && c >= lo);
      ch = undefined;
    } else if (ch === '[' && p[i + 1] === ':') {
      const start = i + 2;
      let end = start;
      while (p[end] !== undefined && p[end] !== ']') end++;
      if (p[end] === undefined) return null;
      if (end - 1 < start || p[end - 1] !== ':') {
        // No `:]`: the `[` is an ordinary member.
        members.push((c) => c === '[');
      } else {
        const test = POSIX[p.slice(start, end - 1).join('')];
        if (test === undefined) return null;
        members.push(test);
        i = end;
        ch = undefined;
      }
    } else {
      const lit = ch;
      members.push((c) => c === lit);
    }
    prev = ch;
    ch = p[++i];
  } while (ch !== ']');
  return { token: { k: 'set', negated, test: (c) => members.some((m) => m(c)) }, next: i + 1 };
}

/** A wildmatch pattern (WM_PATHNAME) as tokens. */
function compile(pattern: string): Pattern {
  const p = [...pattern];
  const tokens: Token[] = [];
  let i = 0;
  while (i < p.length) {
    const ch = p[i] as string;
    if (ch === '\\') {
      const lit = p[i + 1];
      if (lit === undefined) return null;
      tokens.push({ k: 'char', c: lit });
      i += 2;
    } else if (ch === '?') {
      tokens.push({ k: 'one' });
      i++;
    } else if (ch === '[') {
      const b = bracket(p, i + 1);
      if (b === null) return null;
      tokens.push(b.token);
      i = b.next;
    } else if (ch === '*') {
      let j = i;
      while (p[j] === '*') j++;
      const atBoundary = i === 0 || p[i - 1] === '/';
      const after = p[j];
      if (j - i >= 2 && atBoundary && (after === undefined || after === '/')) {
        tokens.push({ k: 'all', dirs: after === '/' });
      } else tokens.push({ k: 'star' });
      i = j;
    } else {
      tokens.push({ k: 'char', c: ch });
      i++;
    }
  }
  return tokens;
}

// A state's flags: reached, and reached afresh (its empty matches followed).
const IN = 1;
const FRESH = 2;

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

/**
 * Whether `tokens` match all of `text`: the automaton's states advanced together, a character at
 * a time; `spend` is told the steps taken.
 */
function run(tokens: readonly Token[], text: string, spend: (steps: number) => void): boolean {
  const n = tokens.length;
  let now = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  // Reaching a token afresh: a star, or `**`, may take nothing, and `**/` may take nothing and its
  // `/` too, but only before it has taken a character: after one, its `/` must come.
  const enter = (set: Uint8Array, s: number): void => {
    if ((set[s] as number) & FRESH) return;
    set[s] = IN | FRESH;
    const t = tokens[s];
    if (t === undefined || (t.k !== 'star' && t.k !== 'all')) return;
    enter(set, s + 1);
    if (t.k === 'all' && t.dirs) enter(set, s + 2);
  };
  // A star or `**` that took a character stays, and may end there.
  const stay = (set: Uint8Array, s: number): void => {
    if ((set[s] as number) & IN) return;
    set[s] = IN;
    enter(set, s + 1);
  };
  enter(now, 0);
  let steps = 0;
  for (const c of text) {
    steps += n + 1;
    next.fill(0);
    let alive = false;
    for (let s = 0; s < n; s++) {
      if (now[s] === 0) continue;
      const t = tokens[s] as Token;
      const ok =
        t.k === 'all' ||
        (t.k === 'char'
          ? t.c === c
          : c !== '/' && (t.k === 'star' || t.k === 'one' || t.test(c) !== t.negated));
      if (!ok) continue;
      alive = true;
      if (t.k === 'star' || t.k === 'all') stay(next, s);
      else enter(next, s + 1);
    }
    if (!alive) {
      spend(steps);
      return false;
    }
    [now, next] = [next, now];
  }
  spend(steps);
  return now[n] !== 0;
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
