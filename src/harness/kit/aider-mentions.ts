/**
 * A part of `aider-repomap` (not a strategy: its name has a dot): what Aider's message mentions,
 * as aider/coders/base_coder.py reads it (`get_ident_mentions`, `get_file_mentions`,
 * `get_ident_filename_matches`, Aider-AI/aider at 5dc9490bb35f), and the Python string and path
 * rules those lean on.
 */

/** Appended in place: copying a list at each push made a common name cost the square of its count. */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * `word` without the run of `chars` at its end (and at its start when `both`): Python's rstrip
 * and strip, in one pass where the regular expression /[...]+$/ is quadratic on a long run.
 */
function trimmed(word: string, chars: string, both: boolean): string {
  let start = 0;
  let end = word.length;
  while (end > start && chars.includes(word[end - 1] as string)) end--;
  while (both && start < end && chars.includes(word[start] as string)) start++;
  return word.slice(start, end);
}

export const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** pathlib's `stem`: the name without its last suffix, a leading or trailing dot being no suffix. */
function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(0, dot) : name;
}
/** os.path.splitext's root: a dot with only dots before it (`.gitignore`) starts no extension. */
export function splitextRoot(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && /[^.]/.test(name.slice(0, dot)) ? name.slice(0, dot) : name;
}

/** What the message mentions: `get_ident_mentions`, then `get_file_mentions` and `get_ident_filename_matches`. */
export function mentionsOf(message: string, names: readonly string[], chat: ReadonlySet<string>) {
  // Python's \W is Unicode-aware: a letter of any script is part of a word.
  const idents = new Set(message.split(/[^\p{L}\p{N}_]+/u));
  const words = new Set(
    message
      .split(/\s+/)
      .filter((w) => w !== '')
      .map((w) => trimmed(trimmed(w, ',.!;:?', false), '"\'`*_', true)),
  );
  const files = new Set<string>();
  const chatBasenames = new Set([...chat].map(basename));
  const byBasename = new Map<string, string[]>();
  for (const name of names.filter((n) => !chat.has(n))) {
    if (words.has(name)) files.add(name);
    // A basename that could be a plain word ("run", "make") is never matched alone.
    if (/[.\-_]/.test(basename(name))) push(byBasename, basename(name), name);
  }
  for (const [base, paths] of byBasename)
    if (!chatBasenames.has(base) && paths.length === 1 && words.has(base)) files.add(paths[0] as string);
  const stems = new Map<string, string[]>();
  for (const name of names) {
    const s = stem(basename(name)).toLowerCase();
    if (s.length >= 5) push(stems, s, name);
  }
  for (const ident of idents)
    if (ident.length >= 5) for (const n of stems.get(ident.toLowerCase()) ?? []) files.add(n);
  return { idents, files };
}
