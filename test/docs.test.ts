/**
 * The README and docs/ point at what exists: every relative link reaches a file of the repository
 * (and a heading of it, when it names one), every file they cite exists, and every
 * `ctxbench <command>` they show is a command the CLI lists. What a new user tripped on (a path
 * to a file the repository lacks) fails here, and so does a page left behind when a file moves.
 * The README stays a five-minute guide: 200 lines at most.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { ROOT } from './helpers/corpus.js';

const PAGES = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (page: string) => fs.readFileSync(path.join(ROOT, page), 'utf8');

/** A page split into its fenced code blocks and the prose around them. */
function parts(text: string): { prose: string; blocks: string[] } {
  const blocks: string[] = [];
  const prose = text.replace(/^```[^\n]*\n([\s\S]*?)^```$/gm, (_, code: string) => {
    blocks.push(code);
    return '';
  });
  return { prose, blocks };
}

/** The inline code spans of prose. */
const spans = (prose: string): string[] => [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string);

/** The targets of a page's Markdown links and images, outside code. */
const links = (prose: string): string[] =>
  [...prose.replace(/`[^`\n]+`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of parts(text).prose.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = (heading as string)
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/**
 * The repository's own top-level folders: a path under one of them names a file the repository
 * holds. Folders git ignores (runs/, dist/, scratch/) hold what a user makes, and are left out.
 */
const ignored = read('.gitignore')
  .split('\n')
  .filter((l) => /^[\w.-]+\/?$/.test(l))
  .map((l) => l.replace(/\/$/, ''));
const TOP = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !ignored.includes(d.name) && d.name !== '.git')
  .map((d) => d.name);

/**
 * Where a path leads outside this repository: the package as a user installs it (`ctxbench/kit`,
 * `node_modules/ctxbench/schemas/...`), the user's own editor settings.
 */
const ELSEWHERE = ['ctxbench', 'node_modules', '.vscode'];

/** Where a page names a module or a test by its folder alone (`run/study.ts`, `cli/mcp.test.ts`). */
const BASES = ['', 'src/', 'src/harness/', 'test/'];

/** Every file name under test/, for a test a page cites by its name alone. */
const TEST_FILES = new Set(
  fs.readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' }).map((f) => path.basename(f)),
);

/**
 * The rule for what a page cites, applied to every line (prose, tables and code blocks alike;
 * a link to another site, its text included, and a bare URL are another site's paths and are
 * dropped first). A citation is a word of path characters, read after any `./` or `../`:
 * - under one of the top-level folders (`src/...`, `test/...`, `docs/...`, `corpus/...`): that
 *   path must exist;
 * - under any other first folder, ending in a module's extension (`run/study.ts`,
 *   `cli/mcp.test.ts`), or quoted as code with any extension (`reading/notes.txt`): it must exist
 *   from the root, src/, src/harness/ or test/;
 * - a test's file name alone (`where.test.ts`): a file of that name must be under test/.
 * A `.js` path stands for its `.ts` source, as NodeNext imports spell it. Not citations: another
 * module's name alone (`guard.ts` may be an example, another project's file, or name several
 * modules: cite it with its folder to have it checked); a placeholder in capitals (`DIR/ledger/`);
 * what a user makes (git-ignored folders); a file the reader is told to create (`zz-` names);
 * a package's path (`@scope/name/...`) and ELSEWHERE.
 */
function citations(text: string): { line: number; path: string }[] {
  const out: { line: number; path: string }[] = [];
  text.split('\n').forEach((raw, k) => {
    const line = raw
      .replace(/\[[^\]]*\]\(\w+:[^)]*\)/g, '')
      .replace(/\w+:\/\/\S+/g, '')
      .replace(/\{[^}\n]*\}/g, '');
    const code = spans(line);
    const pieces = [
      ...code.map((text) => ({ text, quoted: true })),
      { text: line.replace(/`[^`\n]+`/g, ' '), quoted: false },
    ];
    for (const { text, quoted } of pieces)
      for (const [word] of text.matchAll(/[\w.@/-]+/g)) {
        const cited = word.replace(/^(\.\.?\/)+/, '').replace(/[.-]+$/, '');
        if (isCitation(cited, quoted)) out.push({ line: k + 1, path: cited });
      }
  });
  return out;
}

function isCitation(word: string, quoted: boolean): boolean {
  if (/^[\w-]+\.test\.ts$/.test(word)) return true;
  const first = /^([\w.-]+)\/./.exec(word)?.[1];
  if (first === undefined || /^[A-Z]+$/.test(first) || /(^|\/)zz-/.test(word)) return false;
  if (ignored.includes(first) || ELSEWHERE.includes(first)) return false;
  return TOP.includes(first) || /\.[mc]?[jt]sx?$/.test(word) || (quoted && /\.[a-z]+$/.test(word));
}

/** Whether a cited path is a file or folder of the repository. */
function exists(cited: string): boolean {
  if (!cited.includes('/')) return TEST_FILES.has(cited);
  const bases = TOP.includes(cited.split('/')[0] as string) ? [''] : BASES;
  return bases.some((b) =>
    [b + cited, b + cited.replace(/\.js$/, '.ts')].some((p) => fs.existsSync(path.join(ROOT, p))),
  );
}

/** A page's citations that lead nowhere, as `page:line: path`. */
const missing = (page: string, text: string): string[] =>
  citations(text)
    .filter((c) => !exists(c.path))
    .map((c) => `${page}:${c.line}: ${c.path}`);

describe('the README and docs/', () => {
  it('are found', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES.length).toBeGreaterThan(5);
  });

  it.each(PAGES)('%s: every relative link reaches a file, and a heading there when it names one', (page) => {
    const { prose } = parts(read(page));
    for (const target of links(prose)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file = '', anchor] = target.split('#');
      const resolved = file === '' ? path.join(ROOT, page) : path.resolve(ROOT, path.dirname(page), file);
      expect(fs.existsSync(resolved), `${page}: ${target}`).toBe(true);
      if (anchor !== undefined && resolved.endsWith('.md'))
        expect([...anchors(fs.readFileSync(resolved, 'utf8'))], `${page}: ${target}`).toContain(anchor);
    }
  });

  it.each(PAGES)('%s: every file it cites exists', (page) => {
    expect(missing(page, read(page))).toEqual([]);
  });

  it('cite files: the rule finds paths of every kind, and not what is no citation', () => {
    const all = PAGES.flatMap((page) => citations(read(page)).map((c) => c.path));
    expect(all.filter((p) => p.startsWith('src/')).length).toBeGreaterThan(30);
    expect(all.filter((p) => p.startsWith('test/')).length).toBeGreaterThan(30);
    expect(all.filter((p) => !TOP.some((t) => p.startsWith(`${t}/`))).length).toBeGreaterThan(20);
  });

  it("performance.md's count of the files that answer strategies in their thread is the count", () => {
    const said = /by `vi\.mock` in (\d+) files/.exec(read('docs/performance.md'))?.[1];
    const tests = fs
      .readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .filter((f) => /vi\.mock\([^;]*in-thread-hosts/.test(read(`test/${f}`)));
    expect(tests.length).toBeGreaterThan(10);
    expect(Number(said)).toBe(tests.length);
  });

  it('the README is a five-minute guide: 200 lines at most', () => {
    // Lines as wc -l counts them: the newlines.
    expect(read('README.md').match(/\n/g)?.length).toBeLessThanOrEqual(200);
  });

  it('show only commands the CLI lists', async () => {
    const help = await cli('--help');
    const section = help.stdout.slice(help.stdout.indexOf('Commands:'), help.stdout.indexOf('Options:'));
    const commands = new Set([...section.matchAll(/^ {2}ctxbench (\w+)/gm)].map((m) => m[1]));
    expect(commands.size).toBeGreaterThanOrEqual(13);
    let shown = 0;
    for (const page of PAGES) {
      const { prose, blocks } = parts(read(page));
      for (const code of [...spans(prose), ...blocks])
        for (const [, command] of code.matchAll(/(?:^|[\s(])ctxbench ([a-z][\w-]*)/gm)) {
          shown += 1;
          expect(commands.has(command), `${page}: ctxbench ${command}`).toBe(true);
        }
    }
    expect(shown).toBeGreaterThan(20);
  });

  it('the checks catch what a new user tripped on', () => {
    // The README once pointed at a dead link.
    const { prose } = parts('the compiler of [notes](docs/nope.md)\n');
    expect(links(prose)).toEqual(['docs/nope.md']);
    expect(fs.existsSync(path.join(ROOT, 'docs/nope.md'))).toBe(false);
    expect(anchors('# A `b`: c’s d\n## A `b`: c’s d\n')).toEqual(new Set(['a-b-cs-d', 'a-b-cs-d-1']));
  });

  it('the citation check names the page, line and path of each file that is gone', () => {
    // docs/performance.md once cited a test renamed away, in a table, outside code.
    // The README once pointed at a note the repository does not hold.
    const page = [
      'the compiler of `reading/tiered-compile-context.txt`, not {case/budget/strategy.field}',
      '| test/harness/run/slice.test.ts | 41 |',
      'see hosts-gone.test.ts and run/nowhere.ts; `study/run-study.ts`, ../src/harness/kit/index.js',
      '`guard.ts`, full(a.ts), runs/x/rows.jsonl, DIR/ledger/, strategies/zz-probe.ts, `.vscode/mcp.json`',
      '[priompt/src/lib.ts](https://github.com/anysphere/priompt), @modelcontextprotocol/sdk/client/index.js, notes/x.txt',
      '```',
      'src/harness/nope/         a folder a layout block names',
      '```',
    ].join('\n');
    expect(missing('p.md', page)).toEqual([
      'p.md:1: reading/tiered-compile-context.txt',
      'p.md:2: test/harness/run/slice.test.ts',
      'p.md:3: hosts-gone.test.ts',
      'p.md:3: run/nowhere.ts',
      'p.md:7: src/harness/nope/',
    ]);
    expect(citations(page).map((c) => c.path)).toContain('src/harness/kit/index.js');
    expect(citations(page).map((c) => c.path)).toContain('study/run-study.ts');
  });
});

/**
 * What a comment in src/ or strategies/ cites of another module does not rot either (issue 48:
 * seven comments cited files renamed away). A citation there is a word ending in a module's
 * extension (`.ts`, `.js`, `.mjs`): by its name alone it must be a file of the repository's code
 * (src/, strategies/, scripts/, test/, bin/) of that name, its `.ts` for a `.js`; with a folder, it
 * must exist from the root, src/, src/harness/, test/ or the citing file's own folder. Not
 * citations: a type declaration (`.d.ts`), an example of one letter (`a.ts`, `x.test.ts`), and
 * what NOT_OURS names: another project's file a peer follows, an example a comment gives.
 */
const NOT_OURS: Readonly<Record<string, readonly string[]>> = {
  'src/harness/ingest/relevance/relevance-paths.ts': ['card.test.ts'],
  'strategies/langchain-trim.ts': ['dist/messages/transformers.js'],
  'strategies/priompt.ts': ['priompt/src/lib.ts', 'dist/lib.js'],
  'strategies/prompt-tsx.ts': ['promptRenderer.ts', 'materialized.ts'],
};

const CODE_FOLDERS = ['src', 'strategies', 'scripts', 'test', 'bin'];
const codeFiles = CODE_FOLDERS.flatMap((top) =>
  fs.readdirSync(path.join(ROOT, top), { recursive: true, encoding: 'utf8' }).map((f) => path.join(top, f)),
);
const CODE_NAMES = new Set(codeFiles.map((f) => path.basename(f)));

/** The module files a source's comments cite that lead nowhere, as `file:line: path`. */
function missingInComments(file: string, text: string): string[] {
  const out: string[] = [];
  for (const c of text.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g))
    for (const [word] of c[0].matchAll(/[\w.@/-]+\.m?[jt]s\b/g)) {
      const cited = word.replace(/^(\.\.?\/)+/, '');
      const base = path.basename(cited);
      if (cited.endsWith('.d.ts') || /^[a-z]\./.test(base) || NOT_OURS[file]?.includes(cited)) continue;
      const ts = cited.replace(/\.js$/, '.ts');
      const found = cited.includes('/')
        ? ['', 'src/', 'src/harness/', 'test/', `${path.dirname(file)}/`].some((b) =>
            [cited, ts].some((p) => fs.existsSync(path.join(ROOT, b + p))),
          )
        : CODE_NAMES.has(base) || CODE_NAMES.has(path.basename(ts));
      if (!found) out.push(`${file}:${text.slice(0, c.index).split('\n').length}: ${cited}`);
    }
  return out;
}

describe('comments in src/ and strategies/', () => {
  const sources = codeFiles.filter((f) => /^(src|strategies)\/.*\.ts$/.test(f));

  it('are read: every module of the two folders', () => {
    expect(sources.length).toBeGreaterThan(200);
  });

  it('cite only modules that exist', () => {
    expect(sources.flatMap((f) => missingInComments(f, read(f)))).toEqual([]);
  });

  it('NOT_OURS names only citations its files still make', () => {
    for (const [file, cited] of Object.entries(NOT_OURS))
      for (const c of cited) expect(read(file), `${file}: ${c}`).toContain(c);
  });

  it('the check names the file, line and module of each citation that is gone', () => {
    const text = [
      '/** See frames.ts and (`host-protocol.ts`), x.test.ts, a.js, lib.d.ts. */',
      "import { x } from './gone.js';",
      '// score/measures.ts, metrics/measures.ts, ./hosts.ts, channel.js',
    ].join('\n');
    expect(missingInComments('src/harness/hosts/here.ts', text)).toEqual([
      'src/harness/hosts/here.ts:1: frames.ts',
      'src/harness/hosts/here.ts:1: host-protocol.ts',
      'src/harness/hosts/here.ts:3: score/measures.ts',
    ]);
  });
});
