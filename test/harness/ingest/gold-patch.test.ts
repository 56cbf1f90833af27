import { describe, expect, it } from 'vitest';
import { patchFiles } from '../../../src/harness/ingest/swe-bench/gold-patch.js';

/** One file's section of a git diff that modifies it, with a hunk of `body` lines. */
const modified = (p: string, body: readonly string[]): string[] => {
  const old = body.filter((l) => !l.startsWith('+')).length;
  const now = body.filter((l) => !l.startsWith('-')).length;
  return [
    `diff --git a/${p} b/${p}`,
    'index 1111111..2222222 100644',
    `--- a/${p}`,
    `+++ b/${p}`,
    `@@ -1,${old} +1,${now} @@`,
    ...body,
  ];
};

describe('the files of a gold patch, from its headers', () => {
  it('edits two files, one of them with removed lines that read like headers', () => {
    const patch = [
      ...modified('pkg/a.py', [' keep', '--- not a header', '+++ nor this', '+added']),
      ...modified('pkg/b.py', ['-old', '+new']),
      '',
    ].join('\n');
    expect(patchFiles(patch)).toEqual({ edited: ['pkg/a.py', 'pkg/b.py'], created: [] });
  });

  it('tells a created file from an edited one, and a deleted file is edited', () => {
    const patch = [
      ...modified('pkg/a.py', ['-x', '+y']),
      'diff --git a/pkg/new.py b/pkg/new.py',
      'new file mode 100644',
      'index 0000000..3333333',
      '--- /dev/null',
      '+++ b/pkg/new.py',
      '@@ -0,0 +1,2 @@',
      '+one',
      '+two',
      'diff --git a/pkg/gone.py b/pkg/gone.py',
      'deleted file mode 100644',
      'index 4444444..0000000',
      '--- a/pkg/gone.py',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
    ].join('\n');
    expect(patchFiles(patch)).toEqual({ edited: ['pkg/a.py', 'pkg/gone.py'], created: ['pkg/new.py'] });
  });

  it('a renamed file is edited under its old name; a mode change and a binary file under the git line', () => {
    const patch = [
      'diff --git a/old/name.py b/new/name.py',
      'similarity index 90%',
      'rename from old/name.py',
      'rename to new/name.py',
      'diff --git a/run.sh b/run.sh',
      'old mode 100644',
      'new mode 100755',
      'diff --git a/img.png b/img.png',
      'index 5555555..6666666 100644',
      'Binary files a/img.png and b/img.png differ',
      'diff --git a/logo.png b/logo.png',
      'new file mode 100644',
      'index 0000000..7777777',
      'Binary files /dev/null and b/logo.png differ',
    ].join('\n');
    expect(patchFiles(patch)).toEqual({
      edited: ['img.png', 'old/name.py', 'run.sh'],
      created: ['logo.png'],
    });
  });

  it('reads quoted names and names with a space (git ends those with a tab)', () => {
    const patch = [
      'diff --git "a/caf\\303\\251 \\"x\\".py" "b/caf\\303\\251 \\"x\\".py"',
      '--- "a/caf\\303\\251 \\"x\\".py"',
      '+++ "b/caf\\303\\251 \\"x\\".py"',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'diff --git a/with space.py b/with space.py',
      '--- a/with space.py\t',
      '+++ b/with space.py\t',
      '@@ -1 +1 @@',
      '-a',
      '+b',
    ].join('\n');
    expect(patchFiles(patch)).toEqual({ edited: ['café "x".py', 'with space.py'], created: [] });
  });

  it('a plain unified diff without git lines, CRLF line ends too', () => {
    const patch = ['--- a/x.c\t2024-01-01', '+++ b/x.c\t2024-01-02', '@@ -1 +1 @@', '-a', '+b', ''].join(
      '\r\n',
    );
    expect(patchFiles(patch)).toEqual({ edited: ['x.c'], created: [] });
  });

  it('refuses a text with no file header, and a header it cannot read', () => {
    expect(patchFiles('just words')).toEqual({ problem: 'no file header in it (need a unified diff)' });
    expect(patchFiles('diff --git a/x b/y z\nindex 1..2\n')).toEqual({
      problem: 'line 1: cannot tell which file it changes',
    });
    expect(patchFiles('--- "a/unterminated\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n')).toEqual({
      problem: 'line 1: cannot tell which file it changes',
    });
  });
});
