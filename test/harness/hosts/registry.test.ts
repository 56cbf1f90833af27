import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/harness/errors.js';
import {
  listStrategies,
  loadStrategies,
  loadStrategyFile,
  pickStrategies,
} from '../../../src/harness/hosts/registry.js';
import { rowOutcome } from '../../../src/harness/session/measure-answer.js';
import type { Strategy, StrategyInput } from '../../../src/harness/types.js';
import { STRATEGY_ERROR } from '../../../src/harness/vocabulary.js';
import { asError, measured } from '../../helpers/compiled.js';
import { EXTRAS_CAP } from '../../helpers/limits.js';
import { cand, policy, req } from '../../helpers/pool.js';
import { finishedStudy } from '../../helpers/study.js';
import { newDir, tempDir } from '../../helpers/temp.js';

const tmp = tempDir('plugins');

function pluginDir(files: Record<string, string>): string {
  const dir = newDir('strategies', tmp);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const probe = (name: string) =>
  `export default { name: '${name}', description: 'admits nothing', assemble(_input: any) { return { admitted: [] as string[] }; } };\n`;

describe('discovery', () => {
  it('finds every plug-in file, the six published first in their order, then the rest by name', async () => {
    const dir = pluginDir({
      'zz-probe.ts': probe('zz-probe'),
      'oracle.ts': probe('oracle'),
      'aa-first.ts': probe('aa-first'),
      'dump.ts': probe('dump'),
      'notes.json': '{}',
    });
    expect(listStrategies(dir).map((s) => s.name)).toEqual(['dump', 'oracle', 'aa-first', 'zz-probe']);
  });

  it('stops with the file named when a plug-in is malformed or misnamed', async () => {
    const bad = path.join(pluginDir({ 'bad.ts': 'export default { name: "bad" };\n' }), 'bad.ts');
    await expect(loadStrategyFile(bad)).rejects.toThrow(InputError);
    const misnamed = path.join(pluginDir({ 'x.ts': probe('y') }), 'x.ts');
    await expect(loadStrategyFile(misnamed)).rejects.toThrow(/not the file's stem/);
  });

  it('an unknown name in a subset is a usage error listing the known ones', async () => {
    expect(() => pickStrategies(['compiler', 'nope'])).toThrow(/unknown strategy "nope" \(known: dump, topk/);
    expect(pickStrategies(['oracle', 'dump']).map((s) => s.name)).toEqual(['dump', 'oracle']);
  });
});

describe('a strategy that fails becomes an error row, and only that row', () => {
  const input = {
    request: req(500),
    candidates: [cand('a'), cand('b')],
    policy: policy(),
    budget: 500,
    annotations: new Map([['a', { tier: 'hot' }]]),
  };
  const make = (assemble: Strategy['assemble']): Strategy => ({ name: 'x', description: 'test', assemble });

  it.each([
    [
      'throws',
      () => {
        throw new Error('boom');
      },
      'x threw: boom',
    ],
    ['unknown id', () => ({ admitted: ['a', 'ghost'] }), 'unknown ids ghost'],
    ['duplicate id', () => ({ admitted: ['a', 'a'] }), 'duplicate ids'],
    ['refusal without reason', () => ({ refusal: { reason: '' } }), 'refusal without a reason'],
    ['not an object', () => 7 as never, 'not an object'],
    ['bad extras', () => ({ admitted: [], extras: [] as never }), 'extras is not an object'],
    [
      'throws a value with no prototype',
      () => {
        throw Object.create(null);
      },
      'x threw: [object Object]',
    ],
    [
      'throws a Proxy whose every trap throws',
      () => {
        throw new Proxy(
          {},
          {
            get() {
              throw new Error('trap');
            },
            getPrototypeOf() {
              throw new Error('trap');
            },
          },
        );
      },
      'x threw:',
    ],
    [
      'a throwing admitted getter',
      () => ({
        get admitted(): string[] {
          throw new Error('getter');
        },
      }),
      'cannot be read: getter',
    ],
    [
      'a throwing extras getter',
      () => ({
        admitted: [],
        get extras(): Record<string, unknown> {
          throw new Error('getter');
        },
      }),
      'cannot be read: getter',
    ],
    [
      'a Proxy selection',
      () =>
        new Proxy(
          { admitted: [] },
          {
            has() {
              throw new Error('has trap');
            },
          },
        ) as never,
      'cannot be read: has trap',
    ],
    [
      'both admitted and refusal',
      () => ({ admitted: [], refusal: { reason: 'R' } }) as never,
      'both admitted and refusal',
    ],
    ['neither admitted nor refusal', () => ({ extras: {} }) as never, 'neither admitted nor refusal'],
    [
      'extras over the cap',
      () => ({ admitted: [], extras: { blob: 'x'.repeat(EXTRAS_CAP) } }),
      `extras takes more than ${EXTRAS_CAP} characters`,
    ],
    [
      'a change to its input',
      (i: StrategyInput) => {
        (i.request.required_ids as string[]).push('b');
        return { admitted: [] };
      },
      'x tried to change its input, which is read-only',
    ],
    [
      'a change to the annotations map',
      (i: StrategyInput) => {
        (i.annotations as Map<string, unknown>).set('a', {});
        return { admitted: [] };
      },
      'x tried to change its input',
    ],
  ] as const)('%s', (_what, assemble, message) => {
    const out = measured(make(assemble as Strategy['assemble']), input);
    expect(asError(out).message).toContain(message);
    expect(String(out.extras.error)).toContain(message);
    expect(rowOutcome(out)).toEqual({
      success: false,
      reason: STRATEGY_ERROR,
      admitted: [],
      renderedTokens: 0,
      bundleHash: null,
    });
  });

  it('cyclic extras are an error row, not a lost run', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const out = measured(
      make(() => ({ admitted: [], extras: cyclic })),
      input,
    );
    expect(asError(out).message).toMatch(/extras cannot be written as JSON/);
  });

  it('a strategy that writes to its input fails alone: corpus candidates are frozen', async () => {
    const vandal: Strategy = {
      name: 'vandal',
      description: 'writes to its input',
      assemble: (i) => {
        (i.candidates as unknown as unknown[]).reverse();
        return { admitted: [] };
      },
    };
    const [compiler] = await loadStrategies(['compiler']);
    const { rows } = await finishedStudy({ strategies: [vandal, compiler!] });
    expect(rows.filter((r) => r.strategy === 'vandal').every((r) => r.reason === STRATEGY_ERROR)).toBe(true);
    expect(rows.filter((r) => r.strategy === 'compiler')).toEqual(
      (await finishedStudy({ strategies: [compiler!] })).rows,
    );
  });

  it('in a study, the failing strategy’s rows carry null metrics and the others are unaffected', async () => {
    const boom: Strategy = {
      name: 'boom',
      description: 'throws',
      assemble: () => {
        throw new Error('no');
      },
    };
    const [compiler] = await loadStrategies(['compiler']);
    const { rows } = await finishedStudy({ strategies: [compiler!, boom] });
    const { rows: alone } = await finishedStudy({ strategies: [compiler!] });
    expect(rows.filter((r) => r.strategy === 'compiler')).toEqual(alone);
    const failed = rows.filter((r) => r.strategy === 'boom');
    expect(failed).toHaveLength(42);
    for (const r of failed) {
      expect(r).toMatchObject({
        success: false,
        reason: STRATEGY_ERROR,
        must_recall: null,
        status_correct: null,
      });
      expect(r.extras.error).toBe('boom threw: no');
    }
  });
});
