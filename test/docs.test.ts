/**
 * The README and docs/ point at what exists: every relative link reaches a file of the repository
 * (and a heading of it, when it names one), every repository path quoted as code exists, and
 * every `ctxbench <command>` they show is a command the CLI lists. What a new user tripped on
 * (a path to a file the repository lacks) fails here.
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
 * The repository's own top-level folders: a quoted path under one of them names a file the
 * repository holds. Folders git ignores (runs/, dist/) hold what a user makes, and are left out.
 */
const ignored = read('.gitignore')
  .split('\n')
  .filter((l) => /^[\w.-]+\/$/.test(l))
  .map((l) => l.slice(0, -1));
const TOP = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !ignored.includes(d.name) && d.name !== '.git')
  .map((d) => d.name);

/** Where a quoted path leads outside this repository: a package specifier, the user's own editor settings. */
const ELSEWHERE = ['ctxbench', '.vscode'];

/**
 * Whether a code span quotes a file or folder of this repository: a path under one of its
 * folders, or a file path (an extension at the end) under a folder it does not have, which is
 * what a reference to a missing note looks like. Not a placeholder (`DIR/ledger/`), what a user
 * makes (runs/, dist/), a file the reader is told to create (`strategies/zz-probe.ts`), nor a
 * GitHub repository (`owner/name`).
 */
function isRepositoryPath(span: string): boolean {
  const m = /^([\w.-]+)\/[\w./-]*$/.exec(span);
  const first = m?.[1];
  if (first === undefined || /^[A-Z]+$/.test(first) || ignored.includes(first)) return false;
  if (/(^|\/)zz-/.test(span) || ELSEWHERE.includes(first)) return false;
  return TOP.includes(first) || /\.\w+$/.test(span);
}

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

  it.each(PAGES)('%s: every repository path it quotes exists', (page) => {
    const { prose } = parts(read(page));
    for (const span of spans(prose).filter(isRepositoryPath))
      expect(
        // reliability.md names tests by their path under test/, as it says.
        [span, `test/${span}`].some((p) => fs.existsSync(path.join(ROOT, p))),
        `${page}: \`${span}\``,
      ).toBe(true);
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
    // The README once pointed at a note the repository does not hold, and at a dead link.
    const { prose } = parts(
      'the compiler of `reading/tiered-compile-context.txt` and [notes](docs/nope.md)\n',
    );
    expect(spans(prose).filter(isRepositoryPath)).toEqual(['reading/tiered-compile-context.txt']);
    expect(fs.existsSync(path.join(ROOT, 'reading'))).toBe(false);
    expect(links(prose)).toEqual(['docs/nope.md']);
    expect(fs.existsSync(path.join(ROOT, 'docs/nope.md'))).toBe(false);
    expect(anchors('# A `b`: c’s d\n## A `b`: c’s d\n')).toEqual(new Set(['a-b-cs-d', 'a-b-cs-d-1']));
  });
});
