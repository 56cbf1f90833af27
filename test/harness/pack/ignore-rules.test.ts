/**
 * The gitignore matcher against git itself: random trees with random `.gitignore` files at
 * several depths, listed by `listWorkingTree` and by `git ls-files --others --exclude-standard`,
 * must give the same files. Patterns are drawn from every feature of the syntax (anchors, folder
 * rules, negation, `*`, `?`, `**` in each position, sets, ranges, classes, escapes, comments,
 * trailing spaces). Then the matcher's own promise: time linear in the path, on the patterns
 * that make git and the `ignore` package backtrack.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { decide, MatchBudget, parseRules } from '../../../src/harness/ingest/trees/ignore-rules.js';
import { listWorkingTree } from '../../../src/harness/pack/working-tree.js';
import { figureRow, n } from '../../helpers/figures.js';
import { git, initRepository } from '../../helpers/git-fixture.js';
import { tempDir } from '../../helpers/temp.js';
import { FULL } from '../../helpers/tier.js';

const SEED = 'ignore-rules-1';
const TREES = FULL ? 1500 : 60;

const tmp = fs.realpathSync(tempDir('ignore-rules'));

type Random = () => number;
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

const NAMES = ['a', 'b', 'ab', 'ba', 'a.b', 'x.ts', 'x.log', 'bb', '[a]', 'a b', '#a', '!a'];
const PIECES = [
  'a',
  'b',
  'x',
  '.',
  '.ts',
  '.log',
  '*',
  '?',
  '[ab]',
  '[!a]',
  '[a-b]',
  '[[:alpha:]]',
  '\\*',
  '\\[',
];

/** A segment of a pattern: a name, or pieces of one. */
function segment(r: Random): string {
  if (r() < 0.3) return pick(r, NAMES).replace(/^[#!]/, '\\$&');
  let s = '';
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) s += pick(r, PIECES);
  return s;
}

function pattern(r: Random): string {
  const kind = r();
  if (kind < 0.05) return `# ${segment(r)}`;
  const parts: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) parts.push(r() < 0.15 ? '**' : segment(r));
  let p = parts.join('/');
  if (r() < 0.2) p = `/${p}`;
  if (r() < 0.2) p = `${p}/`;
  if (r() < 0.15) p = `**/${p}`;
  if (r() < 0.2) p = `!${p}`;
  if (r() < 0.1) p = `${p}  `;
  return p;
}

/** What the random trees held, for the figures. */
const drawn = { files: 0, patterns: 0 };

/** A random tree of files and folders with `.gitignore` files, written under `dir`. */
function randomTree(r: Random, dir: string): void {
  const visit = (at: string, depth: number) => {
    fs.mkdirSync(at, { recursive: true });
    const names = new Set<string>();
    const n = 1 + Math.floor(r() * 4);
    for (let k = 0; k < n; k++) names.add(pick(r, NAMES));
    for (const name of names) {
      if (depth < 3 && r() < 0.4) visit(path.join(at, name), depth + 1);
      else fs.writeFileSync(path.join(at, name), name);
    }
    if (r() < (depth === 0 ? 0.9 : 0.4)) {
      const lines = Array.from({ length: 1 + Math.floor(r() * 4) }, () => pattern(r));
      drawn.files++;
      drawn.patterns += lines.length;
      fs.writeFileSync(path.join(at, '.gitignore'), `${lines.join('\n')}\n`);
    }
  };
  visit(dir, 0);
}

/** What git lists as untracked and not ignored. */
const gitListing = (dir: string): string[] =>
  git(dir, ['-c', 'core.quotepath=off', 'ls-files', '-z', '--others', '--exclude-standard'])
    .split('\0')
    .filter((p) => p !== '')
    .sort();

describe('the gitignore matcher', () => {
  it(`lists what git lists, over ${TREES} random trees (seed ${SEED})`, async () => {
    const r = seedrandom(SEED);
    const differences: string[] = [];
    for (let t = 0; t < TREES; t++) {
      const dir = path.join(tmp, `t${t}`);
      initRepository(dir);
      randomTree(r, dir);
      // Without the default ignores: git knows only the tree's own rules.
      const ours = (await listWorkingTree(dir, 1_000_000, false)).files;
      const theirs = gitListing(dir);
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        const rules = execFileSync('find', ['.', '-name', '.gitignore'], { cwd: dir, encoding: 'utf8' })
          .split('\n')
          .filter((f) => f !== '')
          .map((f) => `${f}: ${JSON.stringify(fs.readFileSync(path.join(dir, f), 'utf8'))}`);
        differences.push(
          `tree ${t}: ours ${JSON.stringify(ours)}, git ${JSON.stringify(theirs)}; ${rules.join('; ')}`,
        );
      }
      fs.rmSync(dir, { recursive: true });
    }
    expect(differences.slice(0, 3)).toEqual([]);
    figureRow(
      'gitignore matcher',
      'test/harness/pack/ignore-rules.test.ts',
      `${n(TREES)} random trees (seed \`${SEED}\`) with ${n(drawn.files)} .gitignore files of ${n(drawn.patterns)} patterns: every listing the same as \`git ls-files --others --exclude-standard\`; patterns that backtrack for ever in git and \`ignore\` matched in time linear in the path`,
    );
  });

  it('decides by the last matching rule, and applies folder rules to folders only', () => {
    const rules = parseRules(
      '*.log\n!keep.log\nbuild/\n/root.txt\ndoc/**/*.pdf\n',
      '.gitignore',
      new MatchBudget(),
    );
    expect(decide(rules, 'a/b.log', false)).toBe('ignored');
    expect(decide(rules, 'a/keep.log', false)).toBe('kept');
    expect(decide(rules, 'x/build', true)).toBe('ignored');
    expect(decide(rules, 'x/build', false)).toBeNull();
    expect(decide(rules, 'root.txt', false)).toBe('ignored');
    expect(decide(rules, 'a/root.txt', false)).toBeNull();
    expect(decide(rules, 'doc/a.pdf', false)).toBe('ignored');
    expect(decide(rules, 'doc/x/y/a.pdf', false)).toBe('ignored');
    expect(decide(rules, 'other/doc/a.pdf', false)).toBeNull();
  });

  it('matches in time linear in the path where backtracking takes exponential time', () => {
    // Thirty stars against a name of 4,000 `a`s and no `b`: a backtracking matcher tries every way
    // of splitting the name among the stars. Here each character costs one step per pattern state,
    // so the whole run is a few hundred thousand steps; a regression would not finish, not be slow.
    const rules = parseRules(
      `**/${'*a'.repeat(30)}b\n${'*'.repeat(500)}b\n`,
      '.gitignore',
      new MatchBudget(),
    );
    const name = 'a'.repeat(4000);
    expect(decide(rules, `x/${name}`, false)).toBeNull();
    expect(decide(rules, `x/${name}b`, false)).toBe('ignored');
  });

  it("refuses a listing's rules once their matching passes its budget, naming the rule being matched", () => {
    // Each match is linear, but long patterns against long paths multiply: the budget bounds the sum.
    const budget = new MatchBudget(100_000);
    const rules = parseRules(`*.log\n${'*a'.repeat(50)}b\n`, 'x/.gitignore', budget);
    const name = 'a'.repeat(200);
    let matched = 0;
    const all = () => {
      for (; matched < 1000; matched++) decide(rules, name, false);
    };
    expect(all).toThrow(
      expect.objectContaining({
        file: 'x/.gitignore:2',
        message: expect.stringContaining('took more than 100,000 steps'),
      }),
    );
    // About 200 characters times 102 states a match: some five matches fit in 100,000 steps.
    expect(matched).toBeGreaterThan(2);
    expect(matched).toBeLessThan(10);
    // A pattern without wildcards is one comparison, one step.
    const literal = new MatchBudget(3);
    const plain = parseRules('node_modules\n', '.gitignore', literal);
    for (let k = 0; k < 3; k++) expect(decide(plain, 'node_modules', true)).toBe('ignored');
    expect(() => decide(plain, 'node_modules', true)).toThrow(
      expect.objectContaining({ file: '.gitignore:1' }),
    );
  });

  it('never matches a pattern git cannot match, and refuses one too long, naming its line', () => {
    const rules = parseRules(`[ab\n${'\\'.repeat(999)}\n[[:nope:]]\n`, 'x/.gitignore', new MatchBudget());
    for (const p of ['[ab', 'a', '\\', '[[:nope:]]']) expect(decide(rules, p, false)).toBeNull();
    expect(() => parseRules(`a\n${'y'.repeat(5000)}\n`, 'x/.gitignore', new MatchBudget())).toThrow(
      expect.objectContaining({
        file: 'x/.gitignore:2',
        message: 'a pattern of 5000 characters (at most 4096): too long to match',
      }),
    );
  });
});
