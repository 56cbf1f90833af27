/**
 * Hostile plug-ins, dropped into a built copy of the project as an attacker or a careless author
 * would: each fault becomes error rows of its own strategy, and every other strategy's rows and
 * compilations stay byte-identical to a run without them, at one job and at two. The ledger
 * cannot be read by a strategy that does not declare it, whatever route it tries; no message a
 * strategy writes on its channel moves the clock; every text it means for a row is cut.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseFlags, oneCaseCorpus } from '../helpers/cli.js';
import { figureRow, n } from '../helpers/figures.js';
import { attacksOf, CLOSED, isolationFigures } from '../helpers/isolation.js';
import { PRINTED_CAP, TEXT_CAP } from '../helpers/limits.js';
import { BUILT_TRUTH, FLOOD, HOSTILE } from '../helpers/plugins.js';
import { copyOfBuilt, rowsOf, sharedProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('hostile');

// Its plug-ins (test/helpers/plugins.ts) are in the copy of the project every such test shares.
const project = sharedProject(tmp);
const GOOD = 'compiler,compiler-strict,gated,oracle,tiered';
const study = (out: string, names: string, ...extra: string[]) =>
  project.bin(['study', '--strategies', names, '--out', path.join(tmp, out), ...extra]);
const lines = (out: string, file: string) =>
  fs
    .readFileSync(path.join(tmp, out, file), 'utf8')
    .trim()
    .split('\n');
const ofGood = (out: string, file: string) =>
  lines(out, file).filter((l) => GOOD.split(',').includes(JSON.parse(l).strategy));
/** The lines of a run's rows or compilations on the one case the two-job run ran. */
const onAttackedCase = (all: readonly string[]) => all.filter((l) => JSON.parse(l).case === 'wrong-scope');

/**
 * The looping plug-in, where the timeout is the subject, runs alone on the one case it loops on,
 * so every cell under its short timeout is one that never answers. Every other plug-in runs beside
 * the honest strategies under the default timeout: a loaded machine cannot make an error of an
 * honest cell.
 */
const LOOP = 'zz-loop';
const LOOP_TIMEOUT = '1000';
/**
 * The plug-in that grows its heap without end runs alone on the case it grows on, under a small
 * `--memory`, so it runs out in a second or so instead of after the default 4 GiB.
 */
const OOM = 'zz-oom';
const OOM_MEMORY = '256';
const runs: Record<string, ReturnType<typeof study>> = {};
beforeAll(() => {
  expect(project.build.status, project.build.output).toBe(0);
  runs.base = study('base', GOOD);
  const all = `${Object.keys(HOSTILE)
    .filter((n) => n !== LOOP && n !== OOM)
    .join(',')},${GOOD}`;
  runs.one = study('one', all);
  const loops = oneCaseCorpus(tmp, 'wrong-scope-only', 'wrong-scope');
  // Two jobs on the one case every plug-in attacks on: the same attacks, a seventh of the cells.
  runs.two = study('two', all, '--corpus', loops, '--jobs', '2');
  runs.loopOne = study('loop-one', LOOP, '--corpus', loops, '--timeout', LOOP_TIMEOUT);
  runs.loopTwo = study('loop-two', LOOP, '--corpus', loops, '--timeout', LOOP_TIMEOUT, '--jobs', '2');
  runs.oom = study('oom', OOM, '--corpus', loops, '--memory', OOM_MEMORY);
}, 600_000);

const rowsBy = (out: string, name: string) =>
  rowsOf(path.join(tmp, out)).filter((r) => r.strategy === name) as {
    case: string;
    reason: string | null;
    extras: Record<string, unknown>;
  }[];
const errorsOf = (out: string, name: string) =>
  rowsBy(out, name)
    .filter((r) => r.reason === 'STRATEGY_ERROR')
    .map((r) => `${r.case} ${String(r.extras.error)}`);

/** A text cut from one of `whole` characters: a prefix of it, then the marker counting the rest. */
function expectCut(text: string, whole: number): void {
  expect(text.length).toBeLessThanOrEqual(TEXT_CAP);
  const m = / …\[(\d+) more characters cut\]$/.exec(text);
  expect(m, text.slice(-80)).not.toBeNull();
  expect(text.length - (m?.[0].length ?? 0) + Number(m?.[1])).toBe(whole);
}

/** What zz-flood prints on one case, in bytes, and as ctxbench shows its escapes (written out here). */
const FLOODED = Buffer.byteLength(FLOOD.prefix) + 2 * FLOOD.chunks * FLOOD.chunk;
const FLOOD_SHOWN = 'FLOOD\\x1b[2J\\x1b]0;title\\x07\\x0d\\x9b31m\\u202eFLOOD\n';
const DROPPED = new RegExp(
  `^ctxbench: zz-flood printed ([\\d,]+) more bytes, not shown \\(at most ${PRINTED_CAP.toLocaleString('en-US')} bytes of what a strategy prints are\\)$`,
  'gm',
);
/** The bytes zz-flood's processes dropped, as ctxbench's lines count them. */
const droppedOf = (stderr: string) =>
  [...stderr.matchAll(DROPPED)].reduce((sum, m) => sum + Number(m[1]?.replaceAll(',', '')), 0);
/** Characters that could drive a terminal: C0 but the line break and the tab, DEL, C1, and U+202E. */
const active = (text: string) =>
  [...text].filter((c) => {
    const k = c.codePointAt(0) ?? 0;
    return (k < 0x20 && k !== 0x0a && k !== 0x09) || (k >= 0x7f && k <= 0x9f) || k === 0x202e;
  });

describe('hostile plug-ins in one study', () => {
  it('the runs finish with exit 1, naming error rows, and nothing a plug-in printed reaches stdout', () => {
    expect(runs.base?.status, runs.base?.stderr).toBe(0);
    for (const r of [runs.one, runs.two]) {
      expect(r?.status, r?.stderr).toBe(1);
      expect(r?.stderr).toMatch(/error rows:/);
      expect(r?.stdout).not.toMatch(/NOISE/);
      expect(r?.stdout).toMatch(/^[\d,]+ compilations written to /);
    }
  });

  it("every other strategy's rows and compilations are byte-identical to a run without the plug-ins", () => {
    for (const f of ['rows.jsonl', 'compilations.jsonl']) {
      expect(ofGood('one', f)).toEqual(lines('base', f));
      expect(ofGood('two', f)).toEqual(onAttackedCase(lines('base', f)));
    }
  });

  it('one job or two: the same bytes, hostile rows included', () => {
    // What a run derives from its rows is the same at any number of jobs (sweeps.test.ts).
    for (const f of ['rows.jsonl', 'compilations.jsonl']) {
      const two = lines('two', f);
      expect(two.length, f).toBeGreaterThan(0);
      expect(two, f).toEqual(onAttackedCase(lines('one', f)));
    }
  });

  it.each([
    ['zz-mutate-policy', 42, /tried to change its input, which is read-only/],
    ['zz-mutate-required', 42, /tried to change its input/],
    ['zz-mutate-candidates', 42, /tried to change its input/],
    ['zz-throw-null', 42, /zz-throw-null threw: \[object Object\]/],
    ['zz-throw-proxy', 42, /zz-throw-proxy threw: /],
    ['zz-getter-admitted', 42, /returned a selection that cannot be read: getter/],
    ['zz-getter-extras', 42, /returned a selection that cannot be read: getter/],
    ['zz-proxy-selection', 42, /returned a selection that cannot be read: has trap/],
    ['zz-both', 42, /malformed selection: both admitted and refusal/],
    ['zz-extras-16mb', 42, /extras takes more than 65536 characters of JSON/],
    ['zz-extras-200mb', 3, /extras takes more than 65536 characters of JSON/],
    ['zz-exit', 3, /zz-exit's process exited with code 0 while compiling/],
    [
      'zz-bad-frame',
      3,
      /zz-bad-frame's process sent a message that cannot be read \(.+\), and was stopped while compiling/,
    ],
    [
      'zz-huge-frame',
      3,
      /zz-huge-frame's process sent a message of 4294967295 bytes, over the limit of \d+, and was stopped while compiling/,
    ],
    ['zz-close-channel', 3, /zz-close-channel's process exited with code 0 while compiling/],
    ['zz-signals', 42, /^\S+ zz-signals threw: attack: \{/],
    ['zz-inspector', 42, /^\S+ zz-inspector threw: attack: \{/],
    [
      'zz-forge-ready',
      3,
      /^wrong-scope zz-forge-ready's process broke the protocol: it sent a ready message where only its answer may come, and was stopped while compiling$/,
    ],
    [
      'zz-forge-done',
      3,
      /^wrong-scope zz-forge-done's process broke the protocol: it sent a message of no kind the protocol has where only its answer may come, and was stopped while compiling$/,
    ],
    ['zz-forge-error', 3, /^wrong-scope x+ …\[\d+ more characters cut\]$/],
    ['zz-long-throw', 3, /^wrong-scope zz-long-throw threw: z+ …\[\d+ more characters cut\]$/],
    [
      'zz-unknown-id',
      3,
      /^wrong-scope zz-unknown-id returned a malformed selection: unknown ids y+ …\[\d+ more characters cut\]$/,
    ],
  ] as const)('%s: %i error rows, each saying why', (name, count, why) => {
    const errors = errorsOf('one', name);
    expect(errors).toHaveLength(count);
    for (const e of errors) expect(e).toMatch(why);
    if (count === 3) expect(errors.every((e) => e.startsWith('wrong-scope '))).toBe(true);
    expect(rowsBy('one', name)).toHaveLength(42);
  });

  it('a loop is stopped at --timeout, at one job and at two: an error row per cell, saying so', () => {
    for (const [out, run] of [
      ['loop-one', runs.loopOne],
      ['loop-two', runs.loopTwo],
    ] as const) {
      expect(run?.status, run?.stderr).toBe(1);
      expect(run?.stderr).toMatch(/ctxbench: 3 error rows:/);
      const errors = errorsOf(out, LOOP);
      expect(errors).toHaveLength(3);
      for (const e of errors)
        expect(e).toBe(
          `wrong-scope ${LOOP} timed out: no answer within ${LOOP_TIMEOUT} ms, its process was stopped`,
        );
    }
  });

  it('a plug-in that runs out of memory is an error row saying so, at the heap --memory gives it', () => {
    expect(runs.oom?.status, runs.oom?.stderr).toBe(1);
    const errors = errorsOf('oom', OOM);
    expect(errors).toHaveLength(3);
    for (const e of errors)
      expect(e).toBe(
        `wrong-scope ${OOM}'s process ran out of memory (its heap is ${OOM_MEMORY} MiB) while compiling`,
      );
  });

  it('no route to another process is open: each signal, socket and debugger route is refused', () => {
    for (const name of ['zz-signals', 'zz-inspector']) {
      const tried = attacksOf(tmp, 'one', name);
      expect(tried.size, name).toBeGreaterThan(0);
      for (const [route, outcome] of tried) expect(outcome, `${name}: ${route}`).toMatch(CLOSED);
    }
    // A SIGUSR1 that arrived would have turned on the parent's inspector, which says so on stderr.
    for (const r of [runs.one, runs.two])
      expect(r?.stderr).not.toMatch(/Debugger listening|Debugger attached/);
    const f = isolationFigures(tmp);
    const dropped = droppedOf(runs.one?.stderr ?? '');
    figureRow(
      'hostile plug-ins',
      'test/cli/hostile.test.ts',
      `${n(f.plugins)} plug-ins beside ${GOOD.split(',').length} honest strategies, at 1 and 2 jobs: each attempt the attacker's own error row, the honest rows byte-identical to a run without them; ${n(f.routesClosed)} of ${n(f.routesTried)} routes to another process (signals and priorities to the parent and siblings, the inspector, sockets) closed; ${n(f.ledgerClosed)} of ${n(f.ledgerTried)} routes to the ledger closed (${n(BUILT_TRUTH.length + 1)} of them truth files the build would have carried into dist/); ${n(f.breaches)} plug-ins that forged protocol messages stopped for the breach; ${n(f.cut)} plug-ins' texts of millions of characters cut to ${n(TEXT_CAP)}; ${n(3 * FLOODED)} bytes printed with terminal escapes: ${n(PRINTED_CAP)} shown, escaped, and the ${n(dropped)} more counted on one line`,
    );
  });

  it('every text a plug-in means for a row is cut at TEXT_CAP with a marker counting the rest', () => {
    // The message, the thrown text and the ids, each cut from what the plug-in sent.
    for (const [name, whole] of [
      ['zz-forge-error', 2e7],
      ['zz-long-throw', 'zz-long-throw threw: '.length + 2e7],
      ['zz-unknown-id', 'zz-unknown-id returned a malformed selection: unknown ids '.length + 1e7],
    ] as const)
      for (const e of errorsOf('one', name)) expectCut(e.slice('wrong-scope '.length), whole);
    // A refusal's words and its trace's, in the row and in the compilation.
    const refusals = rowsBy('one', 'zz-long-refusal').filter((r) => r.reason !== null);
    expect(refusals).toHaveLength(3);
    for (const r of refusals) expectCut(r.reason as string, 5e6);
    const refused = lines('one', 'compilations.jsonl')
      .map((l) => JSON.parse(l))
      .filter((c) => c.strategy === 'zz-long-refusal' && c.result?.success === false);
    expect(refused).toHaveLength(3);
    for (const { result } of refused) {
      for (const text of [result.failure.reason, result.failure.diagnostic, result.failure.blocking_ids[0]])
        expectCut(text, 5e6);
      const [entry] = result.trace.entries.filter((e: { reason_code: string }) =>
        e.reason_code.startsWith('C'),
      );
      for (const text of [entry.reason_code, entry.reason_detail]) expectCut(text, 5e6);
    }
    // Nothing any plug-in sent makes a long line of a run folder, or of stderr.
    for (const out of ['one', 'two']) {
      for (const file of ['rows.jsonl', 'rows.csv', 'compilations.jsonl'])
        for (const line of lines(out, file)) expect(line.length, `${out}/${file}`).toBeLessThan(64 * 1024);
    }
    for (const r of [runs.one, runs.two])
      for (const line of r?.stderr.split('\n') ?? []) expect(line.length).toBeLessThan(TEXT_CAP + 200);
  });

  it('what a plug-in prints reaches stderr escaped, and cut at PRINTED_CAP, with a line counting the rest', () => {
    for (const r of [runs.one, runs.two]) {
      const stderr = r?.stderr ?? '';
      expect(active(stderr)).toEqual([]);
      const shown = [...stderr].filter((c) => c === 'F' || c === 'G').length;
      expect(shown).toBeGreaterThan(PRINTED_CAP / 2);
      expect(shown).toBeLessThanOrEqual(PRINTED_CAP);
      expect(stderr).toContain(FLOOD_SHOWN);
      expect(stderr.match(DROPPED)?.length).toBeGreaterThan(0);
    }
    // At one job one process floods, its escapes shown once: the bytes shown and the bytes the
    // lines count make up all it printed on its three cases.
    const escaped = Buffer.byteLength(FLOOD_SHOWN) - Buffer.byteLength(FLOOD.prefix);
    expect(droppedOf(runs.one?.stderr ?? '')).toBe(3 * FLOODED - (PRINTED_CAP - escaped));
  });

  it('a plug-in that rewrites builtins does so in its own process: its rows are measured as any', () => {
    // The rows of the others are unchanged (above); the harness that measured them was untouched.
    expect(rowsBy('one', 'zz-globals').map((r) => r.reason)).toEqual(
      rowsBy('one', 'zz-noisy').map((r) => r.reason),
    );
  });

  it('the ledger cannot be read by any route: fs, import, the harness loader, a child process, the build', () => {
    const rows = rowsBy('one', 'zz-peek');
    expect(rows).toHaveLength(42);
    for (const r of rows) {
      expect(r.reason).toBeNull();
      expect(r.extras.given).toBe(false);
      expect(r.extras.oracle).toBe('threw');
      const attempts = r.extras.attempts as Record<string, string>;
      expect(Object.keys(attempts)).toHaveLength(8 + BUILT_TRUTH.length);
      // What the build would have carried into dist/ is not there to read (build.test.ts).
      for (const [route, outcome] of Object.entries(attempts))
        expect(outcome, route).toMatch(
          route.startsWith("the build's ")
            ? /^ENOENT$/
            : route.endsWith('hard-linked into strategies/')
              ? /^ERR_MODULE_NOT_FOUND$/
              : /ERR_ACCESS_DENIED/,
        );
    }
  });

  it('the manifest lists none of them as reading the ledger', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(tmp, 'one/manifest.json'), 'utf8'));
    const readers = manifest.strategies.filter((s: { readsLedger: boolean }) => s.readsLedger);
    expect(readers.map((s: { name: string }) => s.name)).toEqual(['oracle']);
  });
});

describe('hostile plug-ins one compilation at a time', () => {
  const compile = (name: string, ...extra: string[]) =>
    project.bin([
      'compile',
      '--strategy',
      name,
      ...caseFlags('wrong-scope', path.join(project.dir, 'corpus/compiler-v1')),
      ...extra,
    ]);

  it.each([
    ['zz-forge-ready', 'a ready message'],
    ['zz-forge-done', 'a message of no kind the protocol has'],
  ])(
    'compile --strategy %s --timeout 3000: the message it forged stops its process at once, exit 1, one line',
    (name, sent) => {
      // Without the protocol's order the forged message stopped or restarted the clock, and the
      // plug-in's twenty seconds of work became a bundle.
      const r = compile(name, '--timeout', '3000');
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([
        `ctxbench: ${name}'s process broke the protocol: it sent ${sent} where only its answer may come, and was stopped while compiling`,
      ]);
      expect(r.stdout).toBe('');
    },
  );

  it('compile --strategy stops a loop at --timeout: exit 1, one line', () => {
    const r = compile('zz-loop', '--timeout', '1000');
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'ctxbench: zz-loop timed out: no answer within 1000 ms, its process was stopped',
    ]);
    expect(r.stdout).toBe('');
  });

  it('trace --strategy stops a loop at --timeout', () => {
    const r = project.bin([
      'trace',
      'wrong-scope',
      '--budget',
      'tight',
      '--strategy',
      'zz-loop',
      '--timeout',
      '1000',
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/timed out/);
  });

  it('compile --strategy shows what a plug-in prints escaped and cut, then one line counting the rest', () => {
    const r = compile('zz-flood');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).validation).toBeDefined();
    expect(active(r.stderr)).toEqual([]);
    expect(r.stderr.startsWith(FLOOD_SHOWN)).toBe(true);
    const lines = r.stderr.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.at(-2)).toMatch(DROPPED);
    expect(lines.slice(0, -2).every((l) => /^[FG]*$/.test(l) || `${l}\n` === FLOOD_SHOWN)).toBe(true);
    const escaped = Buffer.byteLength(FLOOD_SHOWN) - Buffer.byteLength(FLOOD.prefix);
    expect(droppedOf(r.stderr)).toBe(FLOODED - (PRINTED_CAP - escaped));
    expect(Buffer.byteLength(r.stderr)).toBeLessThan(PRINTED_CAP + 200);
  });

  it('a mutation or an exit is an error of that compilation, and what a plug-in prints stays off stdout', () => {
    expect(compile('zz-mutate-policy').stderr).toMatch(/tried to change its input/);
    expect(compile('zz-exit').stderr).toMatch(/exited with code 0/);
    const noisy = compile('zz-noisy');
    expect(noisy.status).toBe(0);
    expect(JSON.parse(noisy.stdout).validation).toBeDefined();
    expect(noisy.stderr).toMatch(/NOISE/);
  });
});

describe('links in the code strategies may read', () => {
  const linked = copyOfBuilt(project, path.join(tmp, 'linked')).dir;
  const truth = path.join(linked, 'ledger/compiler-v1/wrong-scope.truth.json');
  const run = (out: string) =>
    spawnSync(
      process.execPath,
      [
        path.join(linked, 'bin/ctxbench.js'),
        'study',
        '--strategies',
        'zz-probe',
        '--out',
        path.join(tmp, out),
      ],
      { cwd: tmp, encoding: 'utf8' },
    );

  it.each([
    ['a truth file', 'dist/strategies/zz-truth.json', truth],
    ['the ledger folder', 'dist/src/ledger', path.join(linked, 'ledger')],
  ])(
    'a link in dist/ to %s stops the study before any strategy runs: exit 2, one line',
    (_what, link, to) => {
      fs.symlinkSync(to, path.join(linked, link));
      try {
        const r = run(`linked-${path.basename(link)}`);
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr.trim().split('\n')).toEqual([
          `ctxbench: ${path.join(linked, link)}: a link to ${to}, which reaches the secret ${path.join(linked, 'ledger/compiler-v1')}: strategies would read it through the link; remove it`,
        ]);
        expect(fs.existsSync(path.join(tmp, `linked-${path.basename(link)}.partial`))).toBe(false);
      } finally {
        fs.rmSync(path.join(linked, link));
      }
    },
  );
});
