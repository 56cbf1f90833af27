/**
 * Git's wildmatch (WM_PATHNAME), as a small automaton: a pattern becomes tokens, and a path is run
 * through them with a set of states, never a backtracking search, so a match takes time linear in
 * the path whatever the pattern.
 */

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
export type Pattern = readonly Token[] | null;

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
export function compile(pattern: string): Pattern {
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
 * Whether `tokens` match all of `text`: the automaton's states advanced together, a character at
 * a time; `spend` is told the steps taken.
 */
export function run(tokens: readonly Token[], text: string, spend: (steps: number) => void): boolean {
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
