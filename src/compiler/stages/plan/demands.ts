/**
 * What a plan must meet (docs/compiler.md §17.5): named candidates, and every MANDATORY or
 * REQUIRED content in one of its legal forms, whatever that form's class. A required group is
 * not a demand of its own: a member's option brings the whole group, and the group's contents
 * may as well be present in forms outside it (all or none of it, never part).
 */

import type { RequirementClass } from '../../compiler-types.js';
import type { CompileState } from '../../state.js';
import { noLegalForm } from '../forms.js';
import { refuse, type StageRefusal } from '../refusal.js';
import { type Option, Plan } from './plan.js';

export interface Demand {
  readonly kind: 'named' | 'content';
  /** A candidate id, or a content identity. */
  readonly name: string;
  readonly cls: RequirementClass;
  /** In candidate id order; a named candidate has one. */
  readonly options: readonly Option[];
  /** The option the plan holds, or -1. */
  chosen: number;
}

const isRequired = (band: RequirementClass) => band === 'MANDATORY' || band === 'REQUIRED';

const closureOf = (s: CompileState, roots: readonly string[]): string[] => [
  ...new Set(roots.flatMap((r) => s.pool.unitClosure(r))),
];

/** The demands in plan order (named candidates, then contents by name), or a refusal. */
export function demandsOf(s: CompileState): Demand[] | StageRefusal {
  const { pool } = s;
  const empty = new Plan(s);
  const fixed: Demand[] = [];
  const inFixed = () => new Set(fixed.flatMap((d) => d.options.flatMap((o) => o.closure)));
  for (const id of [...new Set(pool.request.required_ids)].sort()) {
    if (inFixed().has(id)) continue;
    const closure = closureOf(s, [id]);
    const block = empty.conflict(closure);
    if (block) return refuse('UNSATISFIED_DEPENDENCY', [id], `required form blocked: ${block}`);
    fixed.push({
      kind: 'named',
      name: id,
      cls: pool.band(id),
      options: [{ roots: [id], closure }],
      chosen: -1,
    });
  }
  const present = new Set([...inFixed()].map((id) => pool.get(id).content_identity));
  const demanded = new Map<string, RequirementClass>();
  for (const f of pool.facts) {
    if (!isRequired(f.band) || present.has(f.c.content_identity)) continue;
    const known = demanded.get(f.c.content_identity);
    if (known !== 'MANDATORY') demanded.set(f.c.content_identity, f.band);
  }
  const contents: Demand[] = [];
  for (const identity of [...demanded.keys()].sort()) {
    const cls = demanded.get(identity) as RequirementClass;
    const forms = pool.byIdentity.get(identity) ?? [];
    const options: Option[] = [];
    let firstBlock = '';
    for (const f of forms) {
      if (!pool.eligible(f.candidate_id) || !s.selectable(f)) continue;
      const closure = closureOf(s, [f.candidate_id]);
      const block = empty.conflict(closure);
      if (block) firstBlock ||= block;
      else options.push({ roots: [f.candidate_id], closure });
    }
    if (options.length > 0) {
      contents.push({ kind: 'content', name: identity, cls, options, chosen: -1 });
      continue;
    }
    if (firstBlock === '')
      return noLegalForm(
        s,
        cls,
        identity,
        forms.filter((f) => pool.band(f.candidate_id) === cls),
      );
    return refuse(
      'UNSATISFIED_DEPENDENCY',
      [identity],
      `${cls.toLowerCase()} ${identity} blocked: ${firstBlock}`,
    );
  }
  return [...fixed, ...contents];
}
