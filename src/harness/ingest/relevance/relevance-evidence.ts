/**
 * What an issue carries beyond the names of files (issue 49): the strings it quotes, the messages
 * of its errors, the frames of its tracebacks, and its names written in any convention. Read once
 * per task (`IssueEvidence`), by splitting and scanning, never by a regular expression that could
 * backtrack, so that reading it costs a number of steps linear in the task's length.
 * relevance-features.ts turns them into features of each file.
 */

/** A piece sought verbatim in files: longer is a sentence of prose, not a quote. */
const LONGEST_PIECE = 120;
/** A quoted piece shorter than this (`x`, `id`) is found in too many files to say anything. */
const SHORTEST_PIECE = 4;
/** A message's fragment shorter than this is a word, not a message. */
const SHORTEST_MESSAGE = 12;
/** Pieces sought per task at most: each costs one scan of every file's text. */
const MOST_PIECES = 64;
/** Frames kept per task at most, counted from the last. */
const MOST_FRAMES = 64;
/** A normalised name shorter than this (`init`, `name`) names too many things. */
export const SHORTEST_NAME = 6;
/** Longer words are not names; read no further into them. */
const LONGEST_WORD = 200;

const isWordChar = (c: string): boolean =>
  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_';

/** A name in every convention as one key: `StringSlice`, `string_slice`, `string-slice` all give `stringslice`. */
export function nameKey(name: string): string {
  let out = '';
  for (const c of name) if (c !== '_' && c !== '-') out += c.toLowerCase();
  return out;
}

/** A name of two parts or more: an inner `_` or `-`, or a lower-case letter before a capital. */
export function isCompound(name: string): boolean {
  let from = 0;
  let to = name.length;
  while (from < to && name.charAt(from) === '_') from++;
  while (to > from && name.charAt(to - 1) === '_') to--;
  const core = name.slice(from, to);
  if (core.includes('_') || core.includes('-')) return true;
  for (let i = 1; i < core.length; i++) {
    const a = core.charAt(i - 1);
    const b = core.charAt(i);
    if (a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z') return true;
  }
  return false;
}

/** A frame of a traceback: the path it names (its tails at `/`) and the function it was in. */
export interface Frame {
  readonly tails: ReadonlySet<string>;
  readonly fn: string;
}

/** The identifier that starts `s` (word characters), or ''. */
function leadingWord(s: string): string {
  let i = 0;
  while (i < s.length && i < LONGEST_WORD && isWordChar(s.charAt(i))) i++;
  return s.slice(0, i);
}

/** Every tail of a path at its slashes: `a/b/c.py`, `b/c.py`, `c.py`. */
function tailsOf(p: string): Set<string> {
  const parts = p
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  const kept = parts.slice(-12);
  return new Set(kept.map((_, i) => kept.slice(i).join('/')));
}

const allDigits = (s: string): boolean => s !== '' && [...s].every((c) => c >= '0' && c <= '9');

/**
 * A traceback's frame on one line: Python's `File "x.py", line N, in func`, or pytest's
 * `x.py:N: in func`. Null for any other line.
 */
function frameOf(line: string): Frame | null {
  const at = line.indexOf('File "');
  if (at >= 0) {
    const end = line.indexOf('"', at + 6);
    const inAt = end < 0 ? -1 : line.indexOf(', in ', end);
    if (end < 0 || line.slice(end + 1, end + 8) !== ', line ') return null;
    const fn = inAt < 0 ? '' : leadingWord(line.slice(inAt + 5));
    return { tails: tailsOf(line.slice(at + 6, end)), fn };
  }
  const t = line.trim();
  const first = t.indexOf(':');
  const second = first < 0 ? -1 : t.indexOf(':', first + 1);
  if (second < 0 || !allDigits(t.slice(first + 1, second))) return null;
  const p = t.slice(0, first);
  if (!p.includes('.') || p.includes(' ')) return null;
  const rest = t.slice(second + 1);
  const fn = rest.startsWith(' in ') ? leadingWord(rest.slice(4)) : '';
  return { tails: tailsOf(p), fn };
}

/** Characters at which an error's message is cut: formatted values sit between them. */
const CUTS = new Set(['"', "'", '`', '(', ')', '[', ']', '{', '}', '<', '>', '=', ':']);

/** The fragments of an error's message a program writes as they are: runs between formatted values. */
function messageFragments(message: string): string[] {
  const out: string[] = [];
  let run = '';
  const flush = () => {
    const t = run.trim();
    let end = t.length;
    while (end > 0 && '.,;!'.includes(t.charAt(end - 1))) end--;
    const f = t.slice(0, end);
    if (f.length >= SHORTEST_MESSAGE && f.includes(' ') && f.length <= LONGEST_PIECE) out.push(f);
    run = '';
  };
  for (const c of message) {
    if (CUTS.has(c) || (c >= '0' && c <= '9')) flush();
    else run += c;
  }
  flush();
  return out;
}

/** The message after an error's name on a line (`ValueError: bad card`), or null. */
function messageOf(line: string): string | null {
  for (const kind of ['Error: ', 'Exception: ', 'Warning: ']) {
    const at = line.indexOf(kind);
    if (at >= 0) return line.slice(at + kind.length);
  }
  return null;
}

/** Spans between an opening `'` (after a non-word character) and the next closing one (before one). */
function singleQuoted(line: string): string[] {
  const out: string[] = [];
  let open = -1;
  for (let i = 0; i < line.length; i++) {
    if (line.charAt(i) !== "'") continue;
    const before = i === 0 ? ' ' : line.charAt(i - 1);
    const after = i + 1 >= line.length ? ' ' : line.charAt(i + 1);
    if (open < 0) {
      if (!isWordChar(before)) open = i;
    } else if (!isWordChar(after)) {
      out.push(line.slice(open + 1, i));
      open = -1;
    }
  }
  return out;
}

/** The evidence of one task, read once for every file of its state. */
export class IssueEvidence {
  /** Strings and code the task quotes (in backticks or quotes), each sought verbatim in files. */
  readonly quoted: readonly string[];
  /** Fragments of the messages of the errors the task shows. */
  readonly messages: readonly string[];
  /** Its tracebacks' frames, the last first. */
  readonly frames: readonly Frame[];
  /** Its words and adjacent pairs of words, as `nameKey` makes them. */
  readonly keys: ReadonlySet<string>;

  constructor(task: string) {
    const quoted = new Set<string>();
    const messages = new Set<string>();
    const frames: Frame[] = [];
    const keep = (into: Set<string>, piece: string, shortest: number) => {
      const p = piece.trim();
      if (p.length >= shortest && p.length <= LONGEST_PIECE && into.size < MOST_PIECES) into.add(p);
    };
    const ticked = task.split('`');
    for (let k = 1; k < ticked.length; k += 2) {
      const span = ticked[k] as string;
      if (!span.includes('\n')) keep(quoted, span, SHORTEST_PIECE);
    }
    for (const line of task.split('\n')) {
      const doubled = line.split('"');
      for (let k = 1; k < doubled.length - 1; k += 2) keep(quoted, doubled[k] as string, SHORTEST_PIECE);
      for (const s of singleQuoted(line)) keep(quoted, s, SHORTEST_PIECE);
      const message = messageOf(line);
      if (message !== null) for (const f of messageFragments(message)) keep(messages, f, SHORTEST_MESSAGE);
      const frame = frameOf(line);
      if (frame !== null) frames.push(frame);
    }
    this.quoted = [...quoted];
    this.messages = [...messages].filter((m) => !quoted.has(m));
    this.frames = frames.reverse().slice(0, MOST_FRAMES);
    const keys = new Set<string>();
    let last = '';
    for (const w of task.split(/[^A-Za-z0-9_-]+/)) {
      if (w === '' || w.length > LONGEST_WORD) {
        last = '';
        continue;
      }
      const key = nameKey(w);
      if (key.length >= SHORTEST_NAME) keys.add(key);
      // Two words written apart are one name run together (`string slice` for `StringSlice`).
      if (last !== '' && `${last}${key}`.length >= SHORTEST_NAME) keys.add(`${last}${key}`);
      last = key;
    }
    this.keys = keys;
  }
}

/** What `evidenceOf` reads of a file. */
export interface EvidenceFile {
  readonly path: string;
  readonly text: string;
  /** Its stem (relevance-features.ts `stemOf`). */
  readonly stem: string;
  /** The names its outline declares (relevance-declarations.ts). */
  readonly names: readonly string[];
}

/** A file's evidence, as relevance-features.ts names the features. */
export interface Evidence {
  quoted_found: number;
  quoted_rare: number;
  message_found: number;
  frame_rank: number;
  frame_function: number;
  convention_stem: number;
  convention_declared: number;
}

const NONE: Evidence = {
  quoted_found: 0,
  quoted_rare: 0,
  message_found: 0,
  frame_rank: 0,
  frame_function: 0,
  convention_stem: 0,
  convention_declared: 0,
};

/**
 * Each file's evidence for one task. A piece found counts by how few files hold it (1 / their
 * number), so that a quote every file holds says nothing. A frame weighs 1 / (1 + r), r its
 * place among the frames that name a file of the state, counted from the last: the innermost
 * frame of the project's own code first.
 */
export function evidenceOf(ev: IssueEvidence, files: readonly EvidenceFile[]): Map<string, Evidence> {
  const out = new Map(files.map((f) => [f.path, { ...NONE }]));
  const get = (p: string) => out.get(p) as Evidence;
  const seek = (pieces: readonly string[], found: (e: Evidence, share: number) => void) => {
    for (const piece of pieces) {
      const holders = files.filter((f) => f.text.includes(piece));
      for (const f of holders) found(get(f.path), 1 / holders.length);
    }
  };
  seek(ev.quoted, (e, share) => {
    e.quoted_found++;
    e.quoted_rare = Math.max(e.quoted_rare, share);
  });
  seek(ev.messages, (e, share) => {
    e.message_found = Math.max(e.message_found, share);
  });
  for (const e of out.values()) e.quoted_found = Math.log1p(e.quoted_found);
  const declaring = new Map<string, string[]>();
  for (const f of files)
    for (const n of new Set(f.names)) {
      const list = declaring.get(n);
      if (list === undefined) declaring.set(n, [f.path]);
      else list.push(f.path);
    }
  let rank = 0;
  for (const frame of ev.frames) {
    const byPath = files.filter((f) => frame.tails.has(f.path)).map((f) => f.path);
    const byName = frame.fn === '' ? [] : (declaring.get(frame.fn) ?? []);
    if (byPath.length === 0 && byName.length === 0) continue;
    const w = 1 / (1 + rank++);
    for (const p of byPath) get(p).frame_rank = Math.max(get(p).frame_rank, w);
    for (const p of byName) get(p).frame_function = Math.max(get(p).frame_function, w);
  }
  for (const f of files) {
    const e = get(f.path);
    const stem = nameKey(f.stem);
    if (isCompound(f.stem) && stem.length >= SHORTEST_NAME && ev.keys.has(stem)) e.convention_stem = 1;
    const matched = new Set(
      f.names
        .filter((n) => isCompound(n))
        .map(nameKey)
        .filter((k) => k.length >= SHORTEST_NAME && ev.keys.has(k)),
    );
    e.convention_declared = Math.log1p(matched.size);
  }
  return out;
}
