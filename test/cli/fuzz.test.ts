/**
 * Inputs derived from the corpus by breaking fields and bytes (test/helpers/fuzz.ts), fed to the
 * commands that read them: request, candidates and policy files to `compile`, batch lines to
 * `compile --batch` under every strategy, manifests and truth files to `study`. Every input
 * either runs, or stops with exit 2 and one line naming the file it broke; never an internal
 * error, a stack trace, a hang, or anything left behind. Fixed seeds; CI runs a sample, `npm run
 * test:full` all of it (over 10,000 inputs). The counts are printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { listStrategies } from '../../src/harness/hosts/index.js';
import { COMPILE_KEYS, cli, inputFlags } from '../helpers/cli.js';
import { CORPUS_DIR, ROOT } from '../helpers/corpus.js';
import { counted, figureRow, n } from '../helpers/figures.js';
import { breakDocument, describeMutations, type Json, mutations } from '../helpers/fuzz.js';
import { tempDir } from '../helpers/temp.js';
import { FULL } from '../helpers/tier.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

/** Inputs per target: compile's files one input each, batch files of BATCH_LINES inputs. */
const RUNS = FULL
  ? { request: 2500, candidates: 2500, policy: 2000, batch: 100, manifest: 500, ledger: 500 }
  : { request: 120, candidates: 120, policy: 60, batch: 8, manifest: 20, ledger: 20 };
const BATCH_LINES = 20;
const SEED = 20261130;

const tmp = tempDir('fuzz');
const LEDGER_DIR = path.join(ROOT, 'ledger/compiler-v1');
const POLICY = path.join(CORPUS_DIR, 'compiler-policy-v1.json');
const CASES = fs
  .readdirSync(CORPUS_DIR)
  .filter((f) => f.endsWith('.candidates.json'))
  .map((f) => f.slice(0, -'.candidates.json'.length))
  .sort();
const readJson = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8'));
const fileOf = (kase: string, what: 'request' | 'candidates') =>
  path.join(CORPUS_DIR, `${kase}.${what}.json`);
const pick = <T>(xs: readonly T[], k: number): T => xs[k % xs.length] as T;

/** What became of an input: a blank batch line is skipped, as JSON Lines readers do. */
type Outcome = 'bundle' | 'refusal' | 'stopped' | 'blank';
const counts = new Map<string, Record<Outcome, number>>();
const none = (): Record<Outcome, number> => ({ bundle: 0, refusal: 0, stopped: 0, blank: 0 });
const count = (target: string, o: Outcome, n = 1) => {
  const m = counts.get(target) ?? none();
  m[o] += n;
  counts.set(target, m);
};
const totalOf = (target: string) => {
  const m = counts.get(target) ?? none();
  return m.bundle + m.refusal + m.stopped + m.blank;
};
const report = (target: string) => {
  const m = counts.get(target) ?? none();
  const blank = m.blank > 0 ? `, ${m.blank} blank ${m.blank === 1 ? 'line' : 'lines'} skipped` : '';
  console.log(
    `fuzz ${target} (seed ${SEED}): ${totalOf(target)} inputs: ${m.bundle} bundles, ${m.refusal} refusals, ${m.stopped} stopped with one line${blank}`,
  );
  return totalOf(target);
};

const WARNING = /^ctxbench: warning: /;

/**
 * Warnings only, each one bounded line (`ctxbench: warning: <file>: <record>: <field>: ...`):
 * what an input that runs may print. A warning names the file it is about, which need not be
 * the broken one (a broken policy makes an untouched pool's order roles unknown).
 */
function expectWarnings(lines: readonly string[], what: string) {
  for (const line of lines) {
    expect(line, what).toMatch(WARNING);
    expect(line, what).not.toMatch(/internal error/);
    expect(line.length, what).toBeLessThanOrEqual(1100);
  }
}

/**
 * Exit 2 and exactly one error line, naming `file`, with no stack and no internal error; before
 * it, warnings of the files read before the problem was found, nothing else.
 */
function expectOneLine(r: { code: number; stdout: string; stderr: string }, file: string, what: string) {
  const lines = r.stderr.split('\n');
  expect(lines.at(-1), what).toBe('');
  const error = lines.slice(0, -1).filter((l) => !WARNING.test(l));
  expect(error, `${what}\n${r.stderr}`).toHaveLength(1);
  expectWarnings(lines.slice(0, -2), what);
  const last = lines.at(-2) as string;
  expect(last, what).toMatch(/^ctxbench: /);
  expect(last, what).not.toMatch(WARNING);
  expect(last, what).toContain(file);
  expect(r.stderr, what).not.toMatch(/internal error|\n\s+at /);
  expect(last.length, what).toBeLessThanOrEqual(1100);
}

/** A run that went through: nothing on stderr but warnings. */
function expectOnlyWarnings(stderr: string, what: string) {
  expect(stderr === '' || stderr.endsWith('\n'), what).toBe(true);
  expectWarnings(stderr.split('\n').slice(0, -1), what);
}

/** A compilation as `compile` prints it, read back. */
function expectCompilation(text: string, what: string): Outcome {
  const doc = JSON.parse(text);
  // A strategy that lays out its own order says so last (`layout: "own"`); no other key is added.
  const own = doc.layout === 'own' && doc.bundle !== null;
  expect(Object.keys(doc), what).toEqual(own ? [...COMPILE_KEYS, 'layout'] : COMPILE_KEYS);
  return doc.bundle === null ? 'refusal' : 'bundle';
}

/** What is in a folder, recursively, as sorted relative paths. */
const contents = (dir: string): string[] =>
  (fs.readdirSync(dir, { recursive: true }) as string[]).map(String).sort();

let inputs = 0;
/** Run `body` in a folder of its own, removed once the input passed (kept if it failed). */
async function inFresh(target: string, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = path.join(tmp, target, String(++inputs));
  fs.mkdirSync(dir, { recursive: true });
  await body(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

describe.each(['request', 'candidates', 'policy'] as const)('compile with a broken %s file', (target) => {
  it(
    'runs, or stops with one line naming the file; nothing is left behind',
    async () => {
      const property = fc.asyncProperty(fc.nat(), fc.boolean(), mutations, (k, toFile, ms) =>
        inFresh(target, async (dir) => {
          const kase = pick(CASES, k);
          const original = target === 'policy' ? POLICY : fileOf(kase, target);
          const file = path.join(dir, path.basename(original));
          fs.writeFileSync(file, breakDocument(readJson(original), ms));
          const files = {
            request: fileOf(kase, 'request'),
            candidates: fileOf(kase, 'candidates'),
            policy: POLICY,
            [target]: file,
          };
          const output = path.join(dir, 'out.json');
          const r = await cli(
            'compile',
            ...inputFlags(files.request, files.candidates, files.policy),
            ...(toFile ? ['--output', output] : []),
          );
          const what = `${kase} ${target}: ${describeMutations(ms)}`;
          if (r.code === 2) {
            expectOneLine(r, file, what);
            expect(r.stdout, what).toBe('');
            expect(contents(dir), what).toEqual([path.basename(file)]);
            count(target, 'stopped');
            return;
          }
          expect(r.code, `${what}\n${r.stderr}`).toBe(0);
          expectOnlyWarnings(r.stderr, what);
          count(target, expectCompilation(toFile ? fs.readFileSync(output, 'utf8') : r.stdout, what));
          expect(contents(dir), what).toEqual(
            toFile ? [path.basename(file), 'out.json'].sort() : [path.basename(file)],
          );
        }),
      );
      await fc.assert(property, { seed: SEED, numRuns: RUNS[target] });
      expect(report(target)).toBe(RUNS[target]);
    },
    FULL ? 7_200_000 : 1_800_000,
  );
});

describe('compile --batch with broken lines, under every strategy', () => {
  const strategies = listStrategies().map((s) => s.name);
  const line = (kase: string): Json => ({
    request: readJson(fileOf(kase, 'request')),
    candidates: readJson(fileOf(kase, 'candidates')),
    policy: readJson(POLICY),
    ledger: readJson(path.join(LEDGER_DIR, `${kase}.truth.json`)),
  });

  it(
    'each line runs or becomes one error line naming file:line; the rest go on',
    async () => {
      const lineMutations = fc.array(fc.option(mutations, { nil: undefined, freq: 4 }), {
        minLength: BATCH_LINES,
        maxLength: BATCH_LINES,
      });
      const property = fc.asyncProperty(fc.nat(), fc.nat(), lineMutations, (k, s, perLine) =>
        inFresh('batch', async (dir) => {
          const strategy = pick(strategies, s);
          const file = path.join(dir, 'batch.jsonl');
          const lines = perLine.map((ms, n) => {
            const doc = line(pick(CASES, k + n));
            return ms === undefined ? Buffer.from(JSON.stringify(doc)) : breakDocument(doc, ms, 0);
          });
          const bytes = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
          fs.writeFileSync(file, bytes);
          const r = await cli('compile', '--batch', file, '--strategy', strategy);
          const what = `batch under ${strategy}: ${perLine.map((ms) => (ms ? describeMutations(ms) : '-')).join(' | ')}`;
          if (r.code === 2) {
            // Only a file that cannot be read as text stops the whole batch.
            expectOneLine(r, file, what);
            expect(r.stderr, what).toMatch(/UTF|Unicode|too large/);
            count('batch', 'stopped', BATCH_LINES);
            return;
          }
          expect(r.code, `${what}\n${r.stderr}`).toBe(0);
          expectOnlyWarnings(r.stderr, what);
          // Blank lines are skipped; every other line answers, named by its number in the file.
          const numbered = bytes
            .toString('utf8')
            .split('\n')
            .slice(0, -1)
            .map((text, k) => ({ text, line: k + 1 }));
          const answered = numbered.filter((l) => l.text.trim() !== '');
          count('batch', 'blank', numbered.length - answered.length);
          const out = r.stdout.split('\n').slice(0, -1);
          expect(out.length, what).toBe(answered.length);
          out.forEach((text, n) => {
            const doc = JSON.parse(text);
            const line = (answered[n] as { line: number }).line;
            if ('error' in doc) {
              expect(Object.keys(doc), what).toEqual(['error']);
              expect(doc.error, what).toMatch(new RegExp(`^${escapeRegExp(file)}:${line}: [^\\n]+$`));
              expect(doc.error, what).not.toMatch(/internal error/);
              expect(doc.error.length, what).toBeLessThanOrEqual(1100);
              count('batch', 'stopped');
            } else count('batch', expectCompilation(text, `${what} line ${line}`));
          });
        }),
      );
      await fc.assert(property, { seed: SEED, numRuns: RUNS.batch });
      expect(report('batch')).toBeGreaterThanOrEqual(RUNS.batch * BATCH_LINES);
    },
    FULL ? 7_200_000 : 1_800_000,
  );
});

afterAll(() => {
  const total = [...counts.keys()].reduce((sum, target) => sum + totalOf(target), 0);
  console.log(`fuzz (seed ${SEED}): ${total} inputs in all`);
  if (FULL) expect(total).toBeGreaterThanOrEqual(10_000);
  const sum = (o: Outcome) => [...counts.values()].reduce((s, m) => s + m[o], 0);
  figureRow(
    'fuzz',
    'test/cli/fuzz.test.ts',
    `${n(total)} inputs (seed ${SEED}): ${counted(Object.fromEntries([...counts.keys()].map((t) => [t, totalOf(t)])))}; ${n(sum('bundle'))} bundles, ${n(sum('refusal'))} refusals, ${n(sum('stopped'))} stopped with one line, ${n(sum('blank'))} blank batch lines skipped; no crash, hang or leftover`,
  );
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.each(['manifest', 'ledger'] as const)('study with a broken %s', (target) => {
  // Two cases, their manifest entries and truth files: a corpus small enough to run per input.
  const STUDY_CASES = ['dependency-trap', 'wrong-scope'];
  const manifest = readJson(path.join(CORPUS_DIR, 'manifest.json')) as {
    [key: string]: { [key: string]: Json };
  };
  const small: Json = Object.fromEntries(
    Object.entries(manifest).map(([section, byCase]) => [
      section,
      Object.fromEntries(STUDY_CASES.map((c) => [c, byCase[c] as Json])),
    ]),
  );

  it(
    'runs to a whole run folder, or stops with one line naming the file and writes nothing',
    async () => {
      const property = fc.asyncProperty(fc.nat(), mutations, (k, ms) =>
        inFresh(target, async (dir) => {
          const corpus = path.join(dir, 'corpus');
          fs.mkdirSync(path.join(corpus, 'ledger'), { recursive: true });
          for (const c of STUDY_CASES) {
            for (const what of ['request', 'candidates'] as const)
              fs.copyFileSync(fileOf(c, what), path.join(corpus, `${c}.${what}.json`));
            fs.copyFileSync(
              path.join(LEDGER_DIR, `${c}.truth.json`),
              path.join(corpus, 'ledger', `${c}.truth.json`),
            );
          }
          fs.copyFileSync(POLICY, path.join(corpus, 'compiler-policy-v1.json'));
          fs.writeFileSync(path.join(corpus, 'manifest.json'), JSON.stringify(small));
          const kase = pick(STUDY_CASES, k);
          const file =
            target === 'manifest'
              ? path.join(corpus, 'manifest.json')
              : path.join(corpus, 'ledger', `${kase}.truth.json`);
          fs.writeFileSync(file, breakDocument(readJson(file), ms));
          const before = contents(dir);
          const out = path.join(dir, 'run');
          const r = await cli('study', '--corpus', corpus, '--strategies', 'oracle', '--out', out);
          const what = `${target} of ${kase}: ${describeMutations(ms)}`;
          if (r.code === 2) {
            expectOneLine(r, file, what);
            expect(contents(dir), what).toEqual(before);
            count(target, 'stopped');
            return;
          }
          expect(r.code, `${what}\n${r.stderr}`).toBe(0);
          expect(
            fs.existsSync(path.join(out, 'rows.jsonl')) && fs.existsSync(path.join(out, 'manifest.json')),
          ).toBe(true);
          expect(fs.existsSync(`${out}.partial`), what).toBe(false);
          const rows = fs.readFileSync(path.join(out, 'rows.jsonl'), 'utf8').trim().split('\n');
          count(target, rows.some((l) => JSON.parse(l).success === true) ? 'bundle' : 'refusal');
        }),
      );
      await fc.assert(property, { seed: SEED, numRuns: RUNS[target] });
      expect(report(target)).toBe(RUNS[target]);
    },
    FULL ? 7_200_000 : 1_800_000,
  );
});
