/**
 * Discovery from the sources (tests, tsx): a plug-in may be written as `.ts`, `.mts`, `.js` or
 * `.mjs`, each loads in this process and in a strategy process of its own, and two files of one
 * name are an error naming both, never a silent pick.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/harness/errors.js';
import { Hosts } from '../../../src/harness/hosts/index.js';
import { listStrategies, loadStrategyFile } from '../../../src/harness/hosts/registry.js';
import { ROOT } from '../../helpers/corpus.js';
import { cand, policy, req } from '../../helpers/pool.js';
import { newDir, tempDir } from '../../helpers/temp.js';

const tmp = tempDir('registry-js');

/**
 * A strategies/ folder of its own, in a package of type module as the project's is: there a
 * `.js` file is an ES module, as it is in strategies/.
 */
function pluginDir(files: Record<string, string>): string {
  const dir = newDir('strategies', tmp);
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The kit by a relative path, as strategies/ imports it, from a folder made by pluginDir. */
const KIT = path.relative(path.join(tmp, 'strategies-any'), path.join(ROOT, 'src/harness/kit/index.js'));
/** A plain JavaScript plug-in that uses the kit: every candidate that passes the gate and fits. */
const js = (name: string) => `import { eligible, greedyFill } from '${KIT}';
export default {
  name: '${name}',
  description: 'eligible and fitting, in JavaScript',
  assemble(input) {
    return { admitted: greedyFill(input.candidates.filter((c) => eligible(c)), input).map((c) => c.candidate_id) };
  },
};
`;
const ts = (name: string) =>
  `export default { name: '${name}', description: 'admits nothing', assemble(_input: unknown) { return { admitted: [] as string[] }; } };\n`;

describe('discovery of JavaScript plug-ins from the sources', () => {
  it('lists .ts, .mts, .js and .mjs files, and no declarations, tests, data or CommonJS', () => {
    const dir = pluginDir({
      'a-ts.ts': ts('a-ts'),
      'b-mts.mts': ts('b-mts'),
      'c-js.js': js('c-js'),
      'd-mjs.mjs': js('d-mjs'),
      'gated.js': js('gated'),
      'e.d.ts': 'export {};\n',
      'f.d.mts': 'export {};\n',
      'g.test.js': 'export {};\n',
      'h.test.ts': 'export {};\n',
      'i.json': '{}',
      'j.cjs': 'module.exports = {};\n',
    });
    expect(listStrategies(dir).map((s) => path.basename(s.file))).toEqual([
      'gated.js',
      'a-ts.ts',
      'b-mts.mts',
      'c-js.js',
      'd-mjs.mjs',
    ]);
  });

  it.each([
    ['a .ts and a .js', ['dup.ts', 'dup.js']],
    ['a .js and an .mjs', ['dup.js', 'dup.mjs']],
    ['a .ts and an .mts', ['dup.mts', 'dup.ts']],
    ['three files', ['dup.js', 'dup.mjs', 'dup.ts']],
  ])('%s of one name are one error naming every file', (_what, files) => {
    const dir = pluginDir(
      Object.fromEntries(files.map((f) => [f, f.endsWith('ts') ? ts('dup') : js('dup')])),
    );
    const [first, ...others] = files.map((f) => path.join(dir, f)).sort();
    let thrown: unknown;
    try {
      listStrategies(dir);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InputError);
    expect((thrown as InputError).line).toBe(
      `${first}: strategy "dup" is also defined by ${others.join(', ')}: one strategy, one file`,
    );
  });

  it('a .js and an .mjs plug-in load in this process and answer', async () => {
    const dir = pluginDir({ 'zz-js.js': js('zz-js'), 'zz-mjs.mjs': js('zz-mjs') });
    const input = { request: req(1000), candidates: [cand('a'), cand('b')], policy: policy(), budget: 1000 };
    const refs = listStrategies(dir);
    expect(refs.map((r) => r.name)).toEqual(['zz-js', 'zz-mjs']);
    for (const ref of refs) {
      const s = await loadStrategyFile(ref.file);
      expect(s.name).toBe(ref.name);
      expect(s.assemble(input)).toEqual({ admitted: ['a', 'b'] });
    }
  });

  it('a .js and an .mjs plug-in load in strategy processes of their own', async () => {
    const dir = pluginDir({ 'zz-js.js': js('zz-js'), 'zz-mjs.mjs': js('zz-mjs') });
    const hosts = new Hosts({ timeout: 60_000, keep: 2, secrets: [] });
    try {
      const described = await hosts.describe(listStrategies(dir));
      expect(described.map((s) => [s.name, s.description, s.readsLedger])).toEqual([
        ['zz-js', 'eligible and fitting, in JavaScript', false],
        ['zz-mjs', 'eligible and fitting, in JavaScript', false],
      ]);
    } finally {
      hosts.close();
    }
  });

  it('an .mjs plug-in named for another stem is refused with its file named', async () => {
    const file = path.join(pluginDir({ 'x.mjs': js('y') }), 'x.mjs');
    await expect(loadStrategyFile(file)).rejects.toThrow(InputError);
    await expect(loadStrategyFile(file)).rejects.toHaveProperty(
      'line',
      `${file}: strategy name "y" is not the file's stem`,
    );
  });
});
