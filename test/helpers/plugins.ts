/**
 * The plug-ins the tests drop into a copy of the project, as a user or an attacker would: the
 * hostile ones (hostile.test.ts), two TypeScript ones (plugin.test.ts) and two in plain
 * JavaScript (plugin-js.test.ts). All of them go into one copy, built once per test run
 * (`sharedProject` in project.ts), since each build type-checks the whole project; every test
 * names the strategies it runs, or looks for its own in the list, so the others in the copy
 * change nothing it checks.
 */
import path from 'node:path';
import { ROOT } from './corpus.js';

/** A plug-in whose `assemble` body is `body`; type checks off, as a careless author's might be. */
export const plugin = (name: string, body: string, top = '') =>
  `// @ts-nocheck\n${top}\nexport default { name: '${name}', description: 'hostile: ${name}', assemble(input) {\n${body}\n} };\n`;
export const ON_ONE_CASE = "input.request.request_id.startsWith('wrong-scope')";

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
    `const hog = []; while (${ON_ONE_CASE} && process.env.CTXBENCH_FULL === '1') hog.push(new Array(1e6).fill(7)); return { admitted: [] };`,
  ],
  'zz-noisy': ["console.log('NOISE'); console.error('NOISE'); return { admitted: [] };"],
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
  const m = await import(pathToFileURL(path.join(root, 'dist/src/harness/input/ledger.js')).href);
  m.readTruth(path.join(ledger, 'wrong-scope.truth.json'), new Set());
});
await attempt('a child process', () => cp.execFileSync('cat', [path.join(ledger, 'wrong-scope.truth.json')]));
await attempt('another copy on disk', () => fs.readFileSync(${JSON.stringify(path.join(ROOT, 'ledger/compiler-v1/wrong-scope.truth.json'))}));
await attempt('any other file', () => fs.readFileSync('/etc/passwd'));
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
export const MJS_TOPK = `import { baselineAnswer, defaultFormPool, greedyFill, rankBy } from 'ctxbench/kit';

export default {
  name: 'zz-mjs-topk',
  description: 'topk, written as an .mjs module',
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    return baselineAnswer(input, pool, greedyFill(rankBy(pool, (c) => c.relevance), input), 'topk-greedy');
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
};
