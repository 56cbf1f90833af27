/** The bundle layout (docs/compiler.md §11.1), with the role lists the goldens never reach. */
import { describe, expect, it } from 'vitest';
import { compileContext, orderByRole } from '../../src/compiler/index.js';
import { cand, policy, req } from '../helpers/pool.js';

const pool = [
  cand('e1', { order_role: 'evidence' }),
  cand('t1', { order_role: 'task' }),
  cand('s1', { order_role: 'state' }),
  cand('x1', { order_role: 'unlisted' }),
  cand('i1', { order_role: 'instruction' }),
];
const ids = (order: readonly string[]) => orderByRole(pool, order).map((c) => c.candidate_id);

describe('orderByRole', () => {
  it('ranks a role listed twice by its last position, as the reference does', () => {
    // instruction at 0 and 3: its rank is 3, after task (1) and evidence (2).
    expect(ids(['instruction', 'task', 'evidence', 'instruction'])).toEqual(['t1', 'e1', 'i1', 's1', 'x1']);
  });

  it('puts roles the list does not name after every listed one, by id', () => {
    expect(ids(['state'])).toEqual(['s1', 'e1', 'i1', 't1', 'x1']);
    expect(ids([])).toEqual(['e1', 'i1', 's1', 't1', 'x1']);
  });

  it('follows a reversed list', () => {
    expect(ids(['unlisted', 'evidence', 'state', 'task', 'instruction'])).toEqual([
      'x1',
      'e1',
      's1',
      't1',
      'i1',
    ]);
  });

  it('so the compiled bundle, its hash and the trace positions follow the last position too', () => {
    const twice = compileContext(
      req(1000),
      pool,
      policy({ order_roles: ['instruction', 'task', 'evidence', 'instruction'] }),
    );
    expect(twice.bundle?.items.map((i) => i.id)).toEqual(['t1', 'e1', 'i1', 's1', 'x1']);
    const once = compileContext(
      req(1000),
      pool,
      policy({ order_roles: ['task', 'evidence', 'instruction'] }),
    );
    expect(twice.result.bundle_hash).toBe(once.result.bundle_hash);
    expect(twice.result.trace.entries.find((e) => e.candidate_id === 'i1')?.position).toBe(2);
  });
});
