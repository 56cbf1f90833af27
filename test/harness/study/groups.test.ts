/**
 * The groups `--strategies` reads (issue 20): `all`, every registered strategy, and `peers`, the
 * five assemblers people ship, resolved to whichever of them have a file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../../src/harness/errors.js';
import { listStrategies } from '../../../src/harness/hosts/index.js';
import { pickStrategies } from '../../../src/harness/hosts/registry.js';
import { ALL_PEERS, PEERS } from '../../../src/harness/vocabulary.js';
import { newDir, tempDir } from '../../helpers/temp.js';

const tmp = tempDir('groups');

const probe = (name: string) =>
  `export default { name: '${name}', description: 'admits nothing', assemble(_input: any) { return { admitted: [] as string[] }; } };\n`;

function pluginDir(...names: string[]): string {
  const dir = newDir('strategies', tmp);
  for (const name of names) fs.writeFileSync(path.join(dir, `${name}.ts`), probe(name));
  return dir;
}

const names = (refs: readonly { name: string }[]) => refs.map((r) => r.name);

describe('--strategies groups', () => {
  it('peers are the five the issue names, and Aider once the model has asked for files (issue 51)', () => {
    expect([...PEERS].sort()).toEqual(
      ['aider-files', 'aider-repomap', 'langchain-reorder', 'langchain-trim', 'priompt', 'prompt-tsx'].sort(),
    );
  });

  it('peers resolves to the peers that have a file, in registry order', () => {
    const dir = pluginDir('zz-probe', 'priompt', 'compiler', 'langchain-trim', 'dump');
    expect(names(pickStrategies(['peers'], dir))).toEqual(['langchain-trim', 'priompt']);
  });

  it('all is every registered strategy, as the default is', () => {
    const dir = pluginDir('zz-probe', 'priompt', 'compiler', 'dump', 'oracle');
    const every = ['dump', 'compiler', 'oracle', 'priompt', 'zz-probe'];
    expect(names(pickStrategies(['all'], dir))).toEqual(every);
    expect(names(pickStrategies(undefined, dir))).toEqual(every);
  });

  it('groups and names mix, each strategy once, in registry order', () => {
    const dir = pluginDir('zz-probe', 'priompt', 'compiler', 'compiler-v2', 'prompt-tsx', 'dump');
    expect(names(pickStrategies(['priompt', 'peers', 'compiler-v2', 'compiler'], dir))).toEqual([
      'compiler',
      'compiler-v2',
      'priompt',
      'prompt-tsx',
    ]);
    expect(names(pickStrategies(['all', 'dump'], dir))).toEqual(names(listStrategies(dir)));
  });

  it('a group with no file here is absent beside a name, and a usage error alone', () => {
    const dir = pluginDir('compiler', 'dump');
    expect(names(pickStrategies(['compiler', 'peers'], dir))).toEqual(['compiler']);
    expect(() => pickStrategies(['peers'], dir)).toThrow(UsageError);
    expect(() => pickStrategies(['peers'], dir)).toThrow(/the group "peers" has no strategy here/);
  });

  it('an unknown name lists the known strategies and the groups', () => {
    const dir = pluginDir('compiler');
    expect(() => pickStrategies(['nope'], dir)).toThrow(
      /unknown strategy "nope" \(known: compiler; groups: all, peers\)/,
    );
  });

  it('a strategy named like a group is refused with its file named when a group is asked for', () => {
    const dir = pluginDir('compiler', 'all');
    expect(() => pickStrategies(['peers', 'compiler'], dir)).toThrow(InputError);
    expect(() => pickStrategies(['all'], dir)).toThrow(/named like a group/);
  });

  it('in this project, peers is whichever peers strategies/ holds', () => {
    const present = names(listStrategies()).filter((n) => (ALL_PEERS as readonly string[]).includes(n));
    if (present.length === 0) expect(() => pickStrategies(['peers'])).toThrow(/has no strategy here/);
    else expect(names(pickStrategies(['peers']))).toEqual(present);
    expect(names(pickStrategies(['all']))).toEqual(names(listStrategies()));
  });
});
