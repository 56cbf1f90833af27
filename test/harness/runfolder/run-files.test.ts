/**
 * The run folder's files are named in one module, runfolder/files.ts: no other module of src/
 * spells rows.jsonl, manifest.json or any other run file in a string. Prose may mention one only
 * where files.ts cannot be imported: below runfolder/ in the layout's order, and in the CLI's list
 * of commands, which loads no command's modules so that `--help` starts at once. Two other
 * formats hold a manifest.json of their own (a corpus, a folder vendored from the Python
 * reference); each names it once, as a constant of its owner.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_FILE } from '../../../src/harness/runfolder/index.js';
import { ROOT } from '../../helpers/corpus.js';

/** Every run file, and the record of what a stopped run is (writer.ts), by which a partial folder is told. */
const NAMES = [...Object.values(RUN_FILE), 'run.json'];
const OWNER = 'src/harness/runfolder/files.ts';
/** The harness folders before runfolder/ in the layout's order (test/layout.test.ts), and the root modules. */
const BELOW = ['kit', 'corpus', 'metrics', 'output', 'report'].map((f) => `src/harness/${f}/`);
const CANNOT_IMPORT = (file: string) =>
  file === 'src/cli/main.ts' ||
  file.startsWith('src/compiler/') ||
  BELOW.some((f) => file.startsWith(f)) ||
  /^src\/harness\/[^/]+\.ts$/.test(file);
/** The other formats' manifest.json, each declared once by its owner. */
const OTHER_MANIFESTS = [
  { file: 'src/harness/corpus/folder.ts', constant: 'CORPUS_MANIFEST' },
  { file: 'src/harness/audit/conformance-check.ts', constant: 'REFERENCE_MANIFEST' },
];

interface Literal {
  readonly line: number;
  /** Its text; a template's placeholders read `${}`. */
  readonly text: string;
}

/** Where a `/` opens a regular expression rather than divides. */
const REGEX_AFTER = /(?:^|[(,=:[!&|?{};+\-*%<>~^]|\breturn|\btypeof)\s*$/;

/**
 * The string literals of TypeScript source, comments skipped: quotes end at their line, and a
 * template's `${...}` is read as code (its own literals counted) until its brace closes.
 */
function literals(source: string): Literal[] {
  const out: Literal[] = [];
  let line = 1;
  let i = 0;
  let depth = 0;
  /** The open templates: their text so far, line, and the brace depth their placeholder opened at. */
  const open: { text: string; line: number; depth: number }[] = [];
  const template = (text: string, start: number): void => {
    let t = text;
    while (i < source.length) {
      const c = source[i] as string;
      if (c === '\\') {
        t += source.slice(i, i + 2);
        if (source[i + 1] === '\n') line++;
        i += 2;
      } else if (c === '`') {
        i++;
        out.push({ line: start, text: t });
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        i += 2;
        open.push({ text: `${t}\${}`, line: start, depth: depth++ });
        return;
      } else {
        if (c === '\n') line++;
        t += c;
        i++;
      }
    }
  };
  while (i < source.length) {
    const c = source[i] as string;
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      line += source.slice(i, stop).split('\n').length - 1;
      i = stop;
    } else if (c === '/' && REGEX_AFTER.test(source.slice(Math.max(0, i - 12), i))) {
      // A regular expression: to its closing slash, outside a character class.
      let inClass = false;
      for (i++; i < source.length && source[i] !== '\n'; i++) {
        if (source[i] === '\\') i++;
        else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
        else if (source[i] === '/' && !inClass) break;
      }
      i++;
    } else if (c === "'" || c === '"') {
      let t = '';
      for (i++; i < source.length && source[i] !== c && source[i] !== '\n'; i++) {
        if (source[i] === '\\') t += source[i++];
        t += source[i];
      }
      i++;
      out.push({ line, text: t });
    } else if (c === '`') {
      i++;
      template('', line);
    } else if (c === '{') {
      depth++;
      i++;
    } else if (c === '}') {
      depth--;
      i++;
      const t = open.at(-1);
      if (t !== undefined && t.depth === depth) {
        open.pop();
        template(t.text, t.line);
      }
    } else i++;
  }
  return out;
}

/** A literal names a run file when it is the name, or ends in it as a path (after `/`, `\` or `${}`). */
const namesFile = (text: string, name: string): boolean =>
  text === name || [`/${name}`, `\\${name}`, `}${name}`].some((end) => text.endsWith(end));

/** Every place of src/ (but the owner) whose string spells a run file where it must not: `file:line: text`. */
function spelledOutside(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of files) {
    if (file === OWNER) continue;
    const lines = source.split('\n');
    for (const { line, text } of literals(source)) {
      for (const name of NAMES) {
        if (!text.includes(name)) continue;
        const other = OTHER_MANIFESTS.find((o) => o.file === file);
        const declared = `export const ${other?.constant} = '${name}';`;
        if (name === RUN_FILE.manifest && lines[line - 1]?.trim() === declared) continue;
        if (CANNOT_IMPORT(file) && !namesFile(text, name)) continue;
        found.push(`${file}:${line}: ${name} in '${text}'`);
      }
    }
  }
  return found;
}

const sourcesUnder = (dir: string): Map<string, string> =>
  new Map(
    fs
      .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => {
        const file = path.posix.join(dir, f.split(path.sep).join('/'));
        return [file, fs.readFileSync(path.join(ROOT, file), 'utf8')] as const;
      }),
  );

describe('the run folder has one owner', () => {
  const src = sourcesUnder('src');

  it('files.ts names each run file once', () => {
    const owner = literals(src.get(OWNER) as string).map((l) => l.text);
    for (const name of NAMES)
      expect(
        owner.filter((t) => t === name),
        name,
      ).toHaveLength(1);
  });

  it('no other module of src/ spells a run file in a string', () => {
    expect(spelledOutside(src)).toEqual([]);
  });

  it("a corpus's and the reference's manifest.json are each declared once, by their owner", () => {
    for (const { file, constant } of OTHER_MANIFESTS) {
      const declared = `export const ${constant} = '${RUN_FILE.manifest}';`;
      const where = [...src].filter(([, s]) => s.split('\n').some((l) => l.trim() === declared));
      expect(where.map(([f]) => f)).toEqual([file]);
    }
  });

  it('the check finds a name spelled in code, not in a comment, and prose only where files.ts can be imported', () => {
    // Each line of the planted source is numbered in the expectations below.
    const planted = fs.readFileSync(path.join(ROOT, 'test/fixtures/run-files/planted.ts.txt'), 'utf8');
    const above = 'src/harness/study/planted.ts';
    const below = 'src/harness/report/planted.ts';
    expect(spelledOutside(new Map([[above, planted]]))).toEqual([
      `${above}:3: rows.jsonl in 'rows.jsonl'`,
      `${above}:4: manifest.json in '\${}/manifest.json'`,
      `${above}:5: summary.json in 'summary.json'`,
      `${above}:6: compilations.jsonl in 'Generated from compilations.jsonl, by the rows'`,
      `${above}:7: report.html in 'report.html'`,
      // Declared, but not by the corpus's owner: a manifest.json spelled like any other.
      `${above}:8: manifest.json in 'manifest.json'`,
    ]);
    const lines = spelledOutside(new Map([[below, planted]])).map((l) => l.split(':')[1]);
    expect(lines).toEqual(['3', '4', '5', '7', '8']);
    expect(
      spelledOutside(new Map([['src/harness/corpus/folder.ts', planted]])).map((l) => l.split(':')[1]),
    ).toEqual(['3', '4', '5', '7']);
  });
});
