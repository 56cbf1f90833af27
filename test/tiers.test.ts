/**
 * The two test tiers are scheduled: `npm test` by .ci/run on every change, `npm run test:full`
 * by the nightly workflow. A renamed script or a workflow naming one that is gone would leave the
 * full tier run by no one, silently; these hold the names together.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/corpus.js';

const scripts = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const WORKFLOWS = path.join(ROOT, '.github/workflows');
const workflows = fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
/** The npm scripts a workflow's steps run (`run: npm run x`, `run: npm test`). */
const scriptsRun = (text: string): string[] =>
  [...text.matchAll(/^\s*-? *run: npm (?:run (\S+)|(test))\b/gm)].map((m) => (m[1] ?? m[2]) as string);

describe('the test tiers', () => {
  it('test:full is the fast tier with CTXBENCH_FULL=1, and npm test runs vitest without it', () => {
    expect(scripts['test:full']).toMatch(/\bCTXBENCH_FULL=1 vitest run\b/);
    expect(scripts.test).toMatch(/\bvitest run\b/);
    expect(scripts.test).not.toMatch(/CTXBENCH_FULL/);
  });

  it('a workflow runs the full tier on a schedule, and every script a workflow names exists', () => {
    const texts = workflows.map((f) => fs.readFileSync(path.join(WORKFLOWS, f), 'utf8'));
    const scheduled = texts.filter((t) => /^on:[\s\S]*^\s+schedule:\s*\n\s+- cron: (['"])[^'"]+\1/m.test(t));
    expect(scheduled.flatMap(scriptsRun)).toContain('test:full');
    for (const [k, t] of texts.entries())
      for (const s of scriptsRun(t))
        expect(Object.keys(scripts), `${workflows[k]}: npm run ${s}`).toContain(s);
  });

  it('the step reader finds the scripts a step names, and only those', () => {
    expect(
      scriptsRun('steps:\n  - run: npm ci\n  - run: npm run test:full\n    env: {}\n  - run: npm test\n'),
    ).toEqual(['test:full', 'test']);
  });
});
