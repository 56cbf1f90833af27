/**
 * Texts of an untrusted repository, and the task, reach code that once used regular expressions
 * quadratic in their input (a run of spaces, dots or `//` followed by something else): a file's
 * first line, a go.mod, a commit's body, a task's words. Each is read here at a size where the
 * old expressions would take hours, and must give what they gave on small inputs. A regression
 * does not make this test slow; it makes it never finish.
 */
import { describe, expect, it } from 'vitest';
import { goModuleOf } from '../../../src/harness/ingest/outlines/imports.js';
import { firstDocLine } from '../../../src/harness/ingest/pool-builder.js';
import { IssueEvidence } from '../../../src/harness/ingest/relevance/relevance-evidence.js';
import { TaskSignals } from '../../../src/harness/ingest/relevance/relevance-features.js';
import { pathNamer } from '../../../src/harness/ingest/relevance/relevance-score.js';
import { SnippetEvidence } from '../../../src/harness/ingest/relevance/relevance-snippets.js';

const RUN = 2_000_000;

describe('texts built to make a regular expression backtrack', () => {
  it("a file's first line: a comment of two words between millions of spaces", () => {
    const line = `// ${' '.repeat(RUN)}clamp ${' '.repeat(RUN)}values`;
    const said = firstDocLine(`${line}\n`);
    expect(said.startsWith('clamp ')).toBe(true);
    expect(said.endsWith('...')).toBe(true);
    expect(firstDocLine(`/* ${' '.repeat(RUN)} */\n// the doc\n`)).toBe('the doc');
  });

  it('a go.mod whose module line holds a million `//` before a line break', () => {
    expect(goModuleOf(`module ${'//'.repeat(RUN / 2)}\u2028x\n`)).toBeUndefined();
    expect(goModuleOf(`module example.com/m ${'//'.repeat(RUN / 2)}\nmodule other\n`)).toBe('example.com/m');
  });

  it("a task's word of millions of dots before its end", () => {
    const names = pathNamer(`see ${'.'.repeat(RUN)}x and util.ts${'.'.repeat(RUN)}`);
    expect(names('src/util.ts')).toBe(true);
    expect(names('src/x')).toBe(false);
  });

  it('a task of millions of word characters, slashes, dots and opening brackets: every signal read', () => {
    for (const run of [
      'a'.repeat(RUN),
      `${'a/'.repeat(RUN / 2)}b.py`,
      `${'a.'.repeat(RUN / 2)}b`,
      '('.repeat(RUN),
      `${'a'.repeat(RUN)}(`,
    ]) {
      const task = new TaskSignals(`fix pkg/mod.py and pkg.mod ${run} test_mod(\`x_y\`)`);
      expect(task.pathNamed('pkg/mod.py')).toBe(true);
      expect(task.moduleNamed('pkg/mod.py')).toBe(true);
      expect(task.subjectNamed('pkg/mod.py')).toBe(true);
    }
  });

  it("an issue's evidence: millions of quotes, underscores, colons, dots after an error's name", () => {
    for (const run of [
      '"'.repeat(RUN),
      "'".repeat(RUN),
      `${'_'.repeat(RUN)}x`,
      `File "${'a/'.repeat(RUN / 2)}`,
      `x.py:${'1'.repeat(RUN)}`,
      `ValueError: ${'.'.repeat(RUN)}x bad value here`,
    ]) {
      const ev = new IssueEvidence(`fix "bad card" ${run}\n  File "pkg/mod.py", line 3, in parse\n`);
      expect(ev.quoted).toContain('bad card');
      expect(ev.frames.some((f) => f.fn === 'parse' && f.tails.has('pkg/mod.py'))).toBe(true);
    }
  });

  it("an issue's code: millions of dots, fences, console prompts and imports", () => {
    for (const run of [
      '.'.repeat(RUN),
      'a.'.repeat(RUN / 2),
      '```\n'.repeat(RUN / 4),
      '>>> x.'.repeat(RUN / 6),
      `from ${'a.'.repeat(RUN / 2)} import x`,
    ]) {
      const ev = new SnippetEvidence(`\`Card.parse\` fails\n${run}\n`);
      expect(ev.pairs.has('Card parse')).toBe(true);
    }
  });
});
