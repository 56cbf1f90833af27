/**
 * The plug-ins the tests drop into a copy of the project, as a user or an attacker would: the
 * hostile ones (hostile.test.ts), two TypeScript ones (plugin.test.ts), two in plain
 * JavaScript (plugin-js.test.ts), and truth files where the build could carry them into dist/
 * (build.test.ts). All of them go into one copy, built once per test run
 * (`sharedProject` in project.ts), since each build type-checks the whole project; every test
 * names the strategies it runs, or looks for its own in the list, so the others in the copy
 * change nothing it checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StrategyRef } from '../../src/harness/types.js';
import { ROOT } from './corpus.js';
import { tempDir } from './temp.js';

/** A plug-in whose `assemble` body is `body`; type checks off, as a careless author's might be. */
export const plugin = (name: string, body: string, top = '') =>
  `// @ts-nocheck\n${top}\nexport default { name: '${name}', description: 'hostile: ${name}', assemble(input) {\n${body}\n} };\n`;
/**
 * A plug-in in a folder of its own outside the package, as a module file named like `name`
 * (possibly a shipped strategy's name: the host must still not treat it as shipped).
 */
export function outsidePlugin(name: string, source: string): StrategyRef {
  const dir = tempDir(`plugin-${name}`);
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, source);
  return { name, file };
}
export const ON_ONE_CASE = "input.request.request_id.startsWith('wrong-scope')";

/**
 * A message written on the channel (fd 3) as a strategy's host writes one (frames.ts): a length,
 * then V8's bytes. The fd is non-blocking, so a long message is written as the parent reads it.
 * `asked` counts the compilations of this process, which is the id of the request being answered.
 */
const FORGE = `import fs from 'node:fs';
import v8 from 'node:v8';
const forge = (value) => {
  const body = v8.serialize(value);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  const bytes = Buffer.concat([head, body]);
  for (let at = 0; at < bytes.length; ) {
    try { at += fs.writeSync(3, bytes, at); } catch (e) { if (e.code !== 'EAGAIN') throw e; }
  }
};
let asked = 0;`;
/** Twenty seconds of work: a parent that took a forged message for the protocol's would wait them out. */
const WORK = 'for (const end = Date.now() + 20_000; Date.now() < end; ) {}';

/**
 * Truth files of the copy's ledger put where the build could carry them into dist/, where every
 * strategy may read: hard-linked into strategies/ and into a subfolder, and copied into both. The
 * module in the subfolder (LEAK; no strategy, as the registry looks at the top level only)
 * imports those of the subfolder, the top-level link and a truth file of ../ledger, so tsc emits
 * each into dist/ (re-indented); the top-level copy is copied by the build as plug-in data.
 */
export const PLANTED: Readonly<Record<string, { readonly how: 'link' | 'copy'; readonly truth: string }>> = {
  'zz-truth.json': { how: 'link', truth: 'ledger/compiler-v1/wrong-scope.truth.json' },
  'zz-copy.json': { how: 'copy', truth: 'ledger/compiler-v1/conflict-trap.truth.json' },
  'zzdata/truth.json': { how: 'link', truth: 'ledger/compiler-v1/budget-slack.truth.json' },
  'zzdata/copy.json': { how: 'copy', truth: 'ledger/compiler-v1/stale-cheap.truth.json' },
};
/** The truth file LEAK imports from the ledger itself, which tsc emits under dist/ledger/. */
export const IMPORTED_TRUTH = 'ledger/compiler-v1/dependency-trap.truth.json';
/** Every file the build would have put into dist/ from the above, by its path in the package. */
export const BUILT_TRUTH = [
  ...Object.keys(PLANTED).map((f) => `dist/strategies/${f}`),
  `dist/${IMPORTED_TRUTH}`,
].sort();

/** The module of strategies/zzdata/ that imports truth files: a strategy that reads them all. */
export const LEAK = `// @ts-nocheck
import a from './truth.json' with { type: 'json' };
import b from './copy.json' with { type: 'json' };
import c from '../zz-truth.json' with { type: 'json' };
import d from '../../${IMPORTED_TRUTH}' with { type: 'json' };
export default { name: 'zz-leak', description: 'reads truth files through the build', assemble() {
  throw new Error('LEAK ' + JSON.stringify([a, b, c, d]));
} };
`;

/**
 * What zz-flood prints on each case it floods: terminal escapes (clear the screen, set the
 * title, a bell, a carriage return, a C1 control, a right-to-left override), then `chunks` times
 * 64 KiB of 128-byte lines on stdout and as many on stderr.
 */
export const FLOOD = {
  prefix: 'FLOOD\x1b[2J\x1b]0;title\x07\r\u009b31m\u202eFLOOD\n',
  chunks: 8,
  chunk: 65_536,
} as const;

export const HOSTILE: Record<string, [body: string, top?: string]> = {
  'zz-mutate-policy': ['input.policy.order_roles.reverse(); return { admitted: [] };'],
  'zz-mutate-required': ["input.request.required_ids.push('x'); return { admitted: [] };"],
  'zz-mutate-candidates': ['input.candidates[0].token_count = 1; return { admitted: [] };'],
  'zz-throw-null': ['throw Object.create(null);'],
  'zz-throw-proxy': [
    "throw new Proxy({}, { get() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); } });",
  ],
  'zz-getter-admitted': ["return { get admitted() { throw new Error('getter'); } };"],
  'zz-getter-extras': ["return { admitted: [], get extras() { throw new Error('getter'); } };"],
  'zz-proxy-selection': ["return new Proxy({ admitted: [] }, { has() { throw new Error('has trap'); } });"],
  'zz-both': ["return { admitted: [], refusal: { reason: 'R' } };"],
  'zz-loop': [`while (${ON_ONE_CASE}) {} return { admitted: [] };`],
  'zz-extras-16mb': ["return { admitted: [], extras: { blob: 'x'.repeat(16e6) } };"],
  'zz-extras-200mb': [`return { admitted: [], extras: ${ON_ONE_CASE} ? { blob: 'x'.repeat(2e8) } : {} };`],
  'zz-exit': [`if (${ON_ONE_CASE}) process.exit(0); return { admitted: [] };`],
  'zz-oom': [
    `const hog = []; while (${ON_ONE_CASE}) hog.push(new Array(1e6).fill(7)); return { admitted: [] };`,
  ],
  // The channel to the parent is fd 3: garbage, a frame that claims 4 GiB, or the fd closed.
  'zz-bad-frame': [
    `if (${ON_ONE_CASE}) fs.writeSync(3, Buffer.from([0, 0, 0, 8, 0xff, 0x0f, 0x6f, 0x22, 0xff, 0xff, 0xff, 0xff])); return { admitted: [] };`,
    "import fs from 'node:fs';",
  ],
  'zz-huge-frame': [
    `if (${ON_ONE_CASE}) fs.writeSync(3, Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3])); return { admitted: [] };`,
    "import fs from 'node:fs';",
  ],
  'zz-close-channel': [
    `if (${ON_ONE_CASE}) fs.closeSync(3); return { admitted: [] };`,
    "import fs from 'node:fs';",
  ],
  // Signals and priorities to the parent and to every pid around its own (siblings, the test
  // runner): each route is tried, its outcome kept, and the outcomes thrown, so each cell is an
  // error row listing them ('SENT' or 'SET' would mean the route is open).
  'zz-signals': [
    `const outcomes = {};
const attempt = (name, fn) => { try { fn(); outcomes[name] = 'SENT'; } catch (e) { outcomes[name] = e?.code ?? String(e?.message).slice(0, 60); } };
for (const s of ['SIGUSR1', 'SIGSTOP', 'SIGTERM', 'SIGKILL']) attempt(\`process.kill(ppid, \${s})\`, () => process.kill(process.ppid, s));
attempt('process._kill(ppid, 9)', () => process._kill(process.ppid, 9));
attempt('process._debugProcess(ppid)', () => process._debugProcess(process.ppid));
attempt('put process.kill back', () => { Object.defineProperty(process, 'kill', { value: () => 0 }); });
attempt('delete process._kill', () => { if (!delete process._kill) throw Object.assign(new Error('kept'), { code: 'KEPT' }); });
const siblings = {};
for (let pid = Math.max(2, process.pid - 64); pid <= process.pid + 64; pid++)
  if (pid !== process.pid) { try { process.kill(pid, 'SIGKILL'); siblings.SENT = (siblings.SENT ?? 0) + 1; } catch (e) { siblings[e?.code] = (siblings[e?.code] ?? 0) + 1; } }
outcomes['SIGKILL to 128 pids around its own'] = Object.keys(siblings).join(',');
attempt('os.setPriority(ppid, 19) imported', () => os.setPriority(process.ppid, 19));
attempt('os.setPriority(ppid, 19) required', () => require('node:os').setPriority(process.ppid, 19));
attempt('os.setPriority(ppid, 19) through process.getBuiltinModule', () => process.getBuiltinModule('node:os').setPriority(process.ppid, 19));
attempt('os.getPriority(ppid)', () => os.getPriority(process.ppid));
attempt('put os.setPriority back', () => { Object.defineProperty(os, 'setPriority', { value: () => 0 }); });
const reniced = {};
for (let pid = Math.max(2, process.pid - 64); pid <= process.pid + 64; pid++)
  if (pid !== process.pid) { try { os.setPriority(pid, 19); reniced.SET = (reniced.SET ?? 0) + 1; } catch (e) { reniced[e?.code] = (reniced[e?.code] ?? 0) + 1; } }
outcomes['os.setPriority(pid, 19) on 128 pids around its own'] = Object.keys(reniced).join(',');
throw new Error('attack: ' + JSON.stringify(outcomes));`,
    `import os from 'node:os';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);`,
  ],
  // Turn on the parent's inspector, then every way to a socket on 127.0.0.1:9229 (where it
  // would listen) and to any other process, at load, where asynchronous routes can be awaited.
  'zz-inspector': [
    "throw new Error('attack: ' + JSON.stringify(outcomes));",
    `import { createRequire } from 'node:module';
const outcomes = {};
const code = (e) => e?.code ?? String(e?.message).slice(0, 60);
const attempt = async (name, fn) => { try { await fn(); outcomes[name] = 'OPEN'; } catch (e) { outcomes[name] = code(e); } };
const reach = (socket) => new Promise((ok, no) => { socket.on('connect', ok); socket.on('error', no); });
const require = createRequire(import.meta.url);
await attempt('process._debugProcess(ppid)', () => process._debugProcess(process.ppid));
await attempt('process.kill(ppid, SIGUSR1)', () => process.kill(process.ppid, 'SIGUSR1'));
await attempt('import net', async () => reach((await import('node:net')).connect(9229, '127.0.0.1')));
await attempt('require net', () => reach(require('net').createConnection(9229, '127.0.0.1')));
await attempt('process.getBuiltinModule net', () => reach(process.getBuiltinModule('node:net').connect(9229, '127.0.0.1')));
await attempt('the class of process.stdout', () => reach(new process.stdout.constructor().connect(9229, '127.0.0.1')));
await attempt('the handle of process.stdout', () => { const h = new process.stderr._handle.constructor(1); const r = h.connect({}, '/tmp/zz.sock'); if (r !== undefined && r < 0) throw Object.assign(new Error('uv'), { code: 'UV' + r }); });
await attempt('http', async () => new Promise((ok, no) => (require('node:http').get('http://127.0.0.1:9229/json/list', ok)).on('error', no)));
await attempt('https', async () => new Promise((ok, no) => (require('node:https').get('https://127.0.0.1:9229/', ok)).on('error', no)));
await attempt('tls', () => reach(require('node:tls').connect(9229, '127.0.0.1')));
await attempt('http2', () => new Promise((ok, no) => { const s = require('node:http2').connect('http://127.0.0.1:9229'); s.on('connect', ok); s.on('error', no); }));
await attempt('fetch', async () => { if (typeof fetch !== 'function') throw Object.assign(new Error('gone'), { code: 'GONE' }); await fetch('http://127.0.0.1:9229/json/list'); });
await attempt('dgram', () => new Promise((ok, no) => { const s = require('node:dgram').createSocket('udp4'); s.send('x', 9229, '127.0.0.1', (e) => (e ? no(e) : ok())); }));
await attempt('dns', () => require('node:dns').promises.lookup('localhost'));
await attempt('inspector.open', async () => (await import('node:inspector')).open(0));
await attempt('inspector session', async () => new (await import('node:inspector')).Session().connect());
await attempt('process.binding', () => process.binding('tcp_wrap'));
await attempt('process.dlopen', () => process.dlopen({ exports: {} }, '/nonexistent.node'));
await attempt('worker_threads', async () => new (await import('node:worker_threads')).Worker('0', { eval: true }));
await attempt('child_process', async () => (await import('node:child_process')).execFileSync('true'));
await attempt('module.register', async () => (await import('node:module')).register('data:text/javascript,export{}'));`,
  ],
  // Messages of the protocol written by the strategy itself: each must stop its process at once,
  // neither stopping nor restarting the clock (the ready once stopped it, the done restarted it).
  'zz-forge-ready': [
    `asked += 1; if (${ON_ONE_CASE}) { forge({ ready: { name: 'zz-forge-ready', description: 'forged', readsLedger: false } }); ${WORK} } return { admitted: [] };`,
    FORGE,
  ],
  'zz-forge-done': [
    `asked += 1; if (${ON_ONE_CASE}) { forge({ id: asked, done: true }); ${WORK} } return { admitted: [] };`,
    FORGE,
  ],
  // Texts of millions of characters, each meant for a row: forged as the answer, thrown, sent as
  // an id, or given as a refusal's words and its trace's.
  'zz-forge-error': [
    `asked += 1; if (${ON_ONE_CASE}) { forge({ id: asked, answer: { ok: false, message: 'x'.repeat(2e7) } }); process.exit(0); } return { admitted: [] };`,
    FORGE,
  ],
  'zz-long-throw': [`if (${ON_ONE_CASE}) throw new Error('z'.repeat(2e7)); return { admitted: [] };`],
  'zz-unknown-id': [`return { admitted: ${ON_ONE_CASE} ? ['y'.repeat(1e7)] : [] };`],
  'zz-long-refusal': [
    `if (!(${ON_ONE_CASE})) return { admitted: [] };
const c = input.candidates[0];
const entry = { candidate_id: c.candidate_id, content_identity: c.content_identity, representation_id: c.representation_id, decision: 'REJECTED_HARD', reason_code: 'C'.repeat(5e6), reason_detail: 'T'.repeat(5e6), marginal_cost: 0, budget_before: 0, budget_after: 0 };
return { refusal: { reason: 'R'.repeat(5e6), diagnostic: 'D'.repeat(5e6), blocking_ids: ['B'.repeat(5e6)] }, trace: [entry] };`,
  ],
  'zz-noisy': ["console.log('NOISE'); console.error('NOISE'); return { admitted: [] };"],
  // Terminal escapes, then far more than ctxbench shows of what a strategy prints (FLOOD).
  'zz-flood': [
    `if (${ON_ONE_CASE}) {
  put(1, Buffer.from(${JSON.stringify(FLOOD.prefix)}));
  for (let k = 0; k < ${FLOOD.chunks}; k++) { put(1, lines('F')); put(2, lines('G')); }
}
return { admitted: [] };`,
    `import fs from 'node:fs';
// Every byte written, however the pipe takes it (the fd may not block).
const put = (fd, bytes) => { for (let at = 0; at < bytes.length; ) { try { at += fs.writeSync(fd, bytes, at); } catch (e) { if (e.code !== 'EAGAIN') throw e; } } };
const lines = (c) => Buffer.from((c.repeat(127) + '\\n').repeat(512));`,
  ],
  'zz-globals': [
    'return { admitted: [] };',
    'Array.prototype.sort = function () { return this; };\nObject.prototype.polluted = 1;\nMath.max = () => 0;',
  ],
  'zz-peek': [
    "let oracle = 'threw'; try { oracle = JSON.stringify(Oracle.assemble(input)).slice(0, 30); } catch {}\nreturn { admitted: [], extras: { attempts, oracle, given: 'ledger' in input } };",
    `import fs from 'node:fs';
import path from 'node:path';
import * as cp from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
const BUILT_TRUTH = ${JSON.stringify(BUILT_TRUTH)};
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const ledger = path.join(root, 'ledger/compiler-v1');
const attempts = {};
const attempt = async (name, fn) => {
  try { await fn(); attempts[name] = 'READ'; } catch (e) { attempts[name] = e?.code ?? String(e?.message).slice(0, 60); }
};
await attempt('readFileSync', () => fs.readFileSync(path.join(ledger, 'wrong-scope.truth.json')));
await attempt('readdirSync', () => fs.readdirSync(ledger));
await attempt('import a truth file', () => import(pathToFileURL(path.join(ledger, 'wrong-scope.truth.json')).href, { with: { type: 'json' } }));
await attempt('the harness loader', async () => {
  const m = await import(pathToFileURL(path.join(root, 'dist/src/harness/corpus/ledger.js')).href);
  m.readTruth(path.join(ledger, 'wrong-scope.truth.json'), new Set());
});
await attempt('a child process', () => cp.execFileSync('cat', [path.join(ledger, 'wrong-scope.truth.json')]));
await attempt('another copy on disk', () => fs.readFileSync(${JSON.stringify(path.join(ROOT, 'ledger/compiler-v1/wrong-scope.truth.json'))}));
await attempt('any other file', () => fs.readFileSync('/etc/passwd'));
// Where the build would have carried a truth file into dist/ (PLANTED): each must be gone.
for (const file of BUILT_TRUTH) await attempt(\`the build's \${file}\`, () => fs.readFileSync(path.join(root, file)));
await attempt('import a truth file hard-linked into strategies/', () => import('./zz-truth.json', { with: { type: 'json' } }));
const Oracle = (await import(pathToFileURL(path.join(here, ['or', 'acle.js'].join(''))).href)).default;`,
  ],
};

/** The minimal plug-in of docs/adding-a-strategy.md, as TypeScript. */
export const PROBE = `export default {
  name: 'zz-probe',
  description: 'admits nothing',
  assemble(_input: any) { return { admitted: [] as string[] }; },
};
`;

/** A strategy that never answers on one case: only the timeout can stop it. */
export const HANG = `export default {
  name: 'zz-hang',
  description: 'hangs on wrong-scope',
  assemble(input: { request: { request_id: string } }) {
    while (input.request.request_id.startsWith('wrong-scope')) {}
    return { admitted: [] as string[] };
  },
};
`;

/** A strategy that fails one compilation of the 42: wrong-scope at its tight budget (500). */
export const ONCE = `export default {
  name: 'zz-once',
  description: 'throws on one compilation',
  assemble(input: { request: { request_id: string }; budget: number }) {
    if (input.request.request_id.startsWith('wrong-scope') && input.budget === 500) throw new Error('once');
    return { admitted: [] as string[] };
  },
};
`;

/** The gated baseline (strategies/gated.ts) in plain JavaScript, the kit imported as the docs say. */
export const JS_GATED = `import { baselineAnswer, defaultFormPool, gate, greedyFill, rankBy } from '../src/harness/kit/index.js';

export default {
  name: 'zz-js-gated',
  description: 'gated, written in plain JavaScript',
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    const why = new Map();
    const open = pool.filter((c) => {
      const verdict = gate(c);
      if (verdict.code !== 'eligible') why.set(c.candidate_id, verdict);
      return verdict.code === 'eligible';
    });
    return baselineAnswer(input, pool, greedyFill(rankBy(open, (c) => c.relevance), input), 'gated-greedy', why);
  },
};
`;

/** The topk baseline as an ES module file, the kit imported through the package's own name. */
export const MJS_TOPK = `import { baselineAnswer, defaultFormPool, greedyFill, rankBy, withRanking } from 'ctxbench/kit';

export default {
  name: 'zz-mjs-topk',
  description: 'topk, written as an .mjs module',
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    const kept = greedyFill(rankBy(pool, (c) => c.relevance), input);
    return withRanking(input, baselineAnswer(input, pool, kept, 'topk-greedy'));
  },
};
`;

/** Every plug-in above, by its file name in strategies/. */
export const PLUGINS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    Object.entries(HOSTILE).map(([name, [body, top]]) => [`${name}.ts`, plugin(name, body, top)]),
  ),
  'zz-probe.ts': PROBE,
  'zz-hang.ts': HANG,
  'zz-once.ts': ONCE,
  'zz-js-gated.js': JS_GATED,
  'zz-mjs-topk.mjs': MJS_TOPK,
  'zzdata/zz-leak.ts': LEAK,
};
