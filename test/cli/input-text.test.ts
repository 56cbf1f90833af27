/**
 * Input as bytes and names: UTF-8 or a clear refusal, JSON errors on one line by line and column,
 * numbers that stay numbers, and names (`__proto__`, a case called "...policy...") that cannot
 * fool the loaders.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { caseFlags, cli, corpusCopy, inputFlags } from '../helpers/cli.js';
import { CORPUS_DIR } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('input-text');
const request = path.join(CORPUS_DIR, 'wrong-scope.request.json');
const candidates = path.join(CORPUS_DIR, 'wrong-scope.candidates.json');

/** compile with the request replaced by these bytes: exit code and the one line of stderr. */
async function withRequest(name: string, bytes: Buffer | string) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  const r = await cli('compile', ...inputFlags(file, candidates));
  return { code: r.code, lines: r.stderr.trim().split('\n'), file };
}

describe('input bytes', () => {
  const json = fs.readFileSync(request);

  it('a UTF-8 byte-order mark is dropped', async () => {
    const r = await withRequest('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]));
    expect(r.code).toBe(0);
  });

  it('UTF-16 stops with one line that says so', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json.toString('utf8'), 'utf16le')]);
    const r = await withRequest('utf16.json', utf16);
    expect([r.code, r.lines]).toEqual([
      2,
      [`ctxbench: ${r.file}: not UTF-8 (it starts with a UTF-16 byte-order mark)`],
    ]);
  });

  it('invalid UTF-8 stops with the offset of the first bad byte', async () => {
    const bad = Buffer.from('{"request_id": "r\xff"}', 'latin1');
    const r = await withRequest('bad-utf8.json', bad);
    expect([r.code, r.lines]).toEqual([2, [`ctxbench: ${r.file}: not valid UTF-8 (at byte 17)`]]);
  });

  it('the offset is the bad byte even after well-formed multi-byte text and inside a cut sequence', async () => {
    // "é" (2 bytes) and "€" (3 bytes) before the bad byte; then a 3-byte sequence cut short.
    const before = Buffer.from('{"request_id": "é€', 'utf8');
    const r = await withRequest(
      'late-bad.json',
      Buffer.concat([before, Buffer.from([0xff]), Buffer.from('"}')]),
    );
    expect(r.lines).toEqual([`ctxbench: ${r.file}: not valid UTF-8 (at byte ${before.length})`]);
    const cut = Buffer.concat([before, Buffer.from([0xe2, 0x82, 0x22, 0x7d])]);
    const c = await withRequest('cut.json', cut);
    expect(c.lines).toEqual([`ctxbench: ${c.file}: not valid UTF-8 (at byte ${before.length})`]);
    // An encoded surrogate is not UTF-8 either.
    const s = await withRequest('surrogate.json', Buffer.concat([before, Buffer.from([0xed, 0xa0, 0x80])]));
    expect(s.lines).toEqual([`ctxbench: ${s.file}: not valid UTF-8 (at byte ${before.length})`]);
  });

  it('a lone surrogate escape is not text: refused with where it is, never hashed as U+FFFD', async () => {
    const doc = JSON.parse(fs.readFileSync(candidates, 'utf8'));
    const text = JSON.stringify(doc).replace(`"${doc.candidates[1].candidate_id}"`, '"x-\\udc00"');
    const file = path.join(tmp, 'lone.candidates.json');
    fs.writeFileSync(file, text);
    const r = await cli('compile', ...inputFlags(request, file));
    expect([r.code, r.stderr]).toEqual([
      2,
      `ctxbench: ${file}: not Unicode text (a lone surrogate escape in candidates[1].candidate_id)\n`,
    ]);
    // A pair written as two escapes is one character, and fine.
    fs.writeFileSync(file, text.replace('\\udc00', '\\ud83d\\ude00'));
    expect((await cli('compile', ...inputFlags(request, file))).code).toBe(0);
  });

  it('values quoted in a message are escaped and elided: one short line whatever they hold', async () => {
    const doc = JSON.parse(fs.readFileSync(candidates, 'utf8'));
    const id = `evil\n${'x'.repeat(100_000)}`;
    doc.candidates[0] = { ...doc.candidates[0], candidate_id: id, relevance: 'high' };
    const file = path.join(tmp, 'long-id.candidates.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const r = await cli('compile', ...inputFlags(request, file));
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr.length).toBeLessThan(file.length + 200);
    expect(r.stderr).toContain('candidates[0] "evil\\nxxx');
    expect(r.stderr).toMatch(/: invalid relevance: "high" \(need a number in \[0, 1\]\)\n$/);
    // The same id twice: both records are named, each id quoted and elided.
    doc.candidates[0].relevance = 0.5;
    doc.candidates[1] = { ...doc.candidates[0] };
    fs.writeFileSync(file, JSON.stringify(doc));
    const twice = await cli('compile', ...inputFlags(request, file));
    expect(twice.code).toBe(2);
    expect(twice.stderr.split('\n')).toHaveLength(2);
    expect(twice.stderr.length).toBeLessThan(file.length + 300);
    expect(twice.stderr).toMatch(
      /^ctxbench: \S+: candidates\[1\] "evil\\nx+…\(\d+ characters\): duplicate candidate_id \(also candidates\[0\] "evil\\nx+…\(\d+ characters\)\)\n$/,
    );
  });

  it('a JSON syntax error is one line with line and column, never the file quoted back', async () => {
    const r = await withRequest('nan.json', '{\n  "request_id": "r",\n  "usable_token_budget": NaN\n}\n');
    expect([r.code, r.lines]).toEqual([
      2,
      [`ctxbench: ${r.file}: not valid JSON (unexpected "N" at line 3, column 26)`],
    ]);
  });
});

describe('numbers and names', () => {
  it('a relevance too large for a double is refused, not written back as null', async () => {
    const file = path.join(tmp, 'huge.candidates.json');
    const doc = JSON.parse(fs.readFileSync(candidates, 'utf8'));
    doc.candidates[0].relevance = '1e400';
    fs.writeFileSync(file, JSON.stringify(doc));
    const r = await cli('compile', ...inputFlags(request, file));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/candidates\[0\] "instr-1": invalid relevance/);
  });

  it('a content identity called __proto__ keeps its ledger class, so scoring counts it', async () => {
    const dir = corpusCopy(tmp, 'proto', (d) => {
      const c = path.join(d, 'wrong-scope.candidates.json');
      fs.writeFileSync(c, fs.readFileSync(c, 'utf8').replaceAll('"good-evidence"', '"__proto__"'));
      const t = path.join(d, 'ledger/wrong-scope.truth.json');
      fs.writeFileSync(t, fs.readFileSync(t, 'utf8').replaceAll('"good-evidence"', '"__proto__"'));
    });
    const out = path.join(tmp, 'proto-run');
    expect((await cli('study', '--corpus', dir, '--strategies', 'compiler', '--out', out)).code).toBe(0);
    const rows = fs
      .readFileSync(path.join(out, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const original = path.join(tmp, 'proto-original');
    await cli('study', '--strategies', 'compiler', '--out', original);
    const before = fs
      .readFileSync(path.join(original, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const pick = (rs: { case: string; should_recall: number; should_total: number }[]) =>
      rs.filter((r) => r.case === 'wrong-scope').map((r) => [r.should_recall, r.should_total]);
    // The should content is the one renamed: one of one, recalled as before.
    expect(pick(rows)).toEqual(pick(before));
    expect(pick(rows)[0]).toEqual([1, 1]);
  });

  it('a case whose name holds "policy" is a case, not a second policy', async () => {
    const dir = corpusCopy(tmp, 'policy-name', (d) => {
      for (const kind of ['candidates', 'request'])
        fs.renameSync(path.join(d, `wrong-scope.${kind}.json`), path.join(d, `no-policy-here.${kind}.json`));
      fs.renameSync(
        path.join(d, 'ledger/wrong-scope.truth.json'),
        path.join(d, 'ledger/no-policy-here.truth.json'),
      );
      const m = path.join(d, 'manifest.json');
      fs.writeFileSync(m, fs.readFileSync(m, 'utf8').replaceAll('"wrong-scope"', '"no-policy-here"'));
    });
    const r = await cli('trace', 'no-policy-here', '--budget', 'tight', '--corpus', dir);
    expect(r.code, r.stderr).toBe(0);
  });

  it('the reference case still compiles through the same readers', async () => {
    expect((await cli('compile', ...caseFlags('wrong-scope'))).code).toBe(0);
  });
});
