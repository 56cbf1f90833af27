/**
 * The files a unified diff (git's, as SWE-bench's gold patches are) changes, from its headers
 * alone: the paths it edits or deletes as they are before it, and the paths it creates. Hunks are
 * skipped by their line counts, so a removed line that reads `--- x` is never taken for a header.
 */

export interface PatchFiles {
  /** Paths that exist before the patch and that it modifies, deletes or renames (the old name). */
  readonly edited: readonly string[];
  /** Paths the patch creates: they are not in the tree it applies to. */
  readonly created: readonly string[];
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  '"': '"',
  '\\': '\\',
};

/** A path as git writes it in a header: C-quoted when it holds special characters, else as is. */
function unquote(word: string): string | null {
  if (!word.startsWith('"')) return word;
  const bytes: number[] = [];
  for (let i = 1; i < word.length; i++) {
    const c = word[i] as string;
    if (c === '"') return i === word.length - 1 ? Buffer.from(bytes).toString('utf8') : null;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = word[++i] ?? '';
    const octal = /^[0-7]{3}/.exec(word.slice(i, i + 3));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 2;
    } else if (ESCAPES[next] !== undefined) bytes.push((ESCAPES[next] as string).charCodeAt(0));
    else return null;
  }
  return null;
}

/** The path of a `---`/`+++` line's name (`a/x`, `b/x`, `/dev/null`), null for /dev/null. */
function headerPath(name: string): string | null | undefined {
  // git ends a name holding a space with a tab; other tools put a date after one.
  const raw = name.startsWith('"') ? name : (name.split('\t')[0] as string);
  if (raw === '/dev/null') return null;
  const p = unquote(raw.trimEnd());
  if (p === null) return undefined;
  return p.startsWith('a/') || p.startsWith('b/') ? p.slice(2) : p;
}

/** `diff --git a/P b/P`'s path when both sides are the same unquoted path (a mode change). */
function gitLinePath(rest: string): string | undefined {
  const n = (rest.length - 5) / 2;
  if (!Number.isInteger(n) || n < 1 || !rest.startsWith('a/')) return undefined;
  const a = rest.slice(2, 2 + n);
  return rest.slice(2 + n) === ` b/${a}` ? a : undefined;
}

interface Section {
  line: number;
  gitLine?: string | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  renameFrom?: string | undefined;
  renameTo?: string | undefined;
  created: boolean;
}

/** The files a patch changes, or why they cannot be told (`line N: ...`). */
export function patchFiles(patch: string): PatchFiles | { readonly problem: string } {
  const lines = patch.split('\n');
  const sections: Section[] = [];
  let current: Section | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (line.startsWith('diff --git ')) {
      current = { line: i + 1, gitLine: line.slice('diff --git '.length), created: false };
      sections.push(current);
    } else if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      // A diff without git's line opens its section here.
      if (current === undefined || current.from !== undefined) {
        current = { line: i + 1, created: false };
        sections.push(current);
      }
      current.from = headerPath(line.slice(4));
      current.to = headerPath((lines[i + 1] as string).replace(/\r$/, '').slice(4));
      i++;
    } else if (current !== undefined && line.startsWith('new file mode')) current.created = true;
    else if (current !== undefined && line.startsWith('rename from '))
      current.renameFrom = unquote(line.slice(12)) ?? undefined;
    else if (current !== undefined && line.startsWith('rename to '))
      current.renameTo = unquote(line.slice(10)) ?? undefined;
    else {
      const hunk = HUNK.exec(line);
      if (hunk === null) continue;
      // Skip the hunk's body by its counts: old lines (' ' and '-') and new lines (' ' and '+').
      let old = hunk[1] === undefined ? 1 : Number(hunk[1]);
      let added = hunk[2] === undefined ? 1 : Number(hunk[2]);
      while ((old > 0 || added > 0) && i + 1 < lines.length) {
        const body = lines[++i] as string;
        if (body.startsWith('\\')) continue;
        if (body.startsWith('-')) old--;
        else if (body.startsWith('+')) added--;
        else {
          old--;
          added--;
        }
      }
    }
  }
  if (sections.length === 0) return { problem: 'no file header in it (need a unified diff)' };
  const edited = new Set<string>();
  const created = new Set<string>();
  for (const s of sections) {
    const before = s.renameFrom ?? (s.from === undefined ? gitLinePath(s.gitLine ?? '') : s.from);
    const after = s.renameTo ?? (s.to === undefined ? gitLinePath(s.gitLine ?? '') : s.to);
    if (s.created || before === null) {
      if (typeof after !== 'string') return { problem: `line ${s.line}: cannot tell which file it creates` };
      created.add(after);
    } else if (typeof before === 'string') edited.add(before);
    else return { problem: `line ${s.line}: cannot tell which file it changes` };
  }
  const sorted = (set: Set<string>) => [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { edited: sorted(edited), created: sorted(created) };
}
