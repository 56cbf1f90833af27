import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/corpus.js';

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;

/** Every project file a module reaches through relative imports (`.js` specifiers map to `.ts`). */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (!spec?.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
    if (fs.existsSync(target)) reach(target, seen);
  }
  return seen;
}

/** Bare (package or node:) imports of a set of files. */
const externals = (files: Iterable<string>) =>
  [...files]
    .flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(IMPORT)].map((m) => m[1] as string))
    .filter((s) => !s.startsWith('.'));

const strategyFiles = fs
  .readdirSync(path.join(ROOT, 'strategies'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => path.join(ROOT, 'strategies', f));
const LEDGER = path.join(ROOT, 'src/harness/ledger.ts');

describe('the hidden ledger stays hidden', () => {
  it.each(strategyFiles.filter((f) => !f.endsWith('oracle.ts')).map((f) => [path.basename(f), f]))(
    '%s reaches no ledger code through its imports',
    (_name, file) => {
      expect([...reach(file)]).not.toContain(LEDGER);
    },
  );

  it('the import scan does find the ledger where it is imported', () => {
    expect([...reach(path.join(ROOT, 'src/harness/runner.ts'))].length).toBeGreaterThan(1);
    expect([...reach(path.join(ROOT, 'src/cli/study.ts'))]).toContain(LEDGER);
  });
});

describe('the compiler core imports nothing outside itself', () => {
  const dir = path.join(ROOT, 'src/compiler');
  const files = fs.readdirSync(dir).map((f) => path.join(dir, f));

  it('reaches only its own folder and Node built-ins', () => {
    for (const f of files) for (const r of reach(f)) expect(r.startsWith(dir + path.sep), r).toBe(true);
    for (const spec of externals(files)) expect(spec.startsWith('node:'), spec).toBe(true);
  });

  it('knows no evaluation vocabulary', () => {
    const text = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    for (const token of ['eval_class', 'oracle_', 'DISTRACTOR', 'HARMFUL', 'ledger'])
      expect(text).not.toContain(token);
  });
});
