/**
 * The legal-bundle problem as a 0/1 integer program, written independently of the branch and
 * bound (`search.ts`) so each checks the other. One column per candidate (x), one for "the bundle
 * is not empty" (y), and for each candidate below the relevance threshold that can earn only
 * through coverage, an earning column (e), and for each key such a candidate holds, one column (w) for "at most one
 * holder of the key is chosen".
 *
 *   one form per content          sum of x over the content's forms <= 1 (= 1 when required)
 *   hard gates and floors         x = 0 for a candidate that fails one
 *   named candidates              x = 1
 *   dependencies                  x_c <= x_d for every d that c depends on
 *   all-or-none groups            x equal across the group's members
 *   rendered cost within budget   sum (item + separator) x - separator y <= budget - frame,
 *                                 y <= sum x  (the first item has no separator before it)
 *   earning through a key alone   e_c <= x_c, e_c <= sum of w_k over c's keys,
 *                                 sum of x over the key's m holders + (m - 1) w_k <= m
 */
import {
  byCandidateId,
  type ContextCandidate,
  headerCost,
  itemRenderCost,
  promotedClass,
  requiredGroups,
  separatorCost,
} from '../../../compiler/index.js';
import type { StrategyInput } from '../../types.js';

/** What a bundle must satisfy: contents present, candidates named, a budget (or none). */
export interface Requirements {
  readonly contents: ReadonlySet<string>;
  readonly named: ReadonlySet<string>;
  readonly budget: number;
}

type Term = readonly [coefficient: number, column: string];

/**
 * Relevance enters the objective scaled, so that a relevance of 1e-7, which still counts for
 * `exact`, stays far above the solver's optimality tolerance.
 */
export const RELEVANCE_SCALE = 1e6;

const push = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
};

const terms = (ts: readonly Term[]): string =>
  ts.map(([a, v], k) => `${a < 0 ? '-' : k === 0 ? '' : '+'} ${Math.abs(a)} ${v}`).join(' ');

/** Whether a candidate passes every hard gate and its form floor: only then may a bundle hold it. */
export const passesGates = (c: ContextCandidate): boolean =>
  c.scope_eligible && c.freshness_eligible && c.authority_eligible && c.form_rank >= c.min_rank;

/** The static model of one pool under one set of requirements, written as LP text on demand. */
export class BundleModel {
  readonly input: StrategyInput;
  /** Candidates in id order; column `x<k>` is the k-th. */
  readonly sorted: readonly ContextCandidate[];
  private readonly index = new Map<string, number>();
  private readonly rows: string[] = [];
  private readonly bounds: string[] = [];
  private readonly binaries: string[] = [];
  /** The rendered cost less the frame, as terms (the frame is a constant). */
  readonly costTerms: readonly Term[];
  readonly frame: number;
  /** Earned PREFERRED and DISCRETIONARY relevance, as terms. */
  readonly preferredTerms: Term[] = [];
  readonly discretionaryTerms: Term[] = [];
  /** The level each earning candidate's relevance counts toward, by id. */
  readonly earning = new Map<string, 'preferred' | 'discretionary'>();

  constructor(input: StrategyInput, req: Requirements) {
    this.input = input;
    this.sorted = [...input.candidates].sort(byCandidateId);
    this.sorted.forEach((c, k) => {
      this.index.set(c.candidate_id, k);
      this.binaries.push(`x${k}`);
    });
    this.frame = headerCost(input.request, input.policy);
    const separator = separatorCost(input.policy);
    this.oneFormPerContent(req.contents);
    this.gatesAndNames(req.named);
    this.dependenciesAndGroups();
    this.costTerms = [
      ...this.sorted.map((c, k): Term => [itemRenderCost(c, input.policy) + separator, `x${k}`]),
      [-separator, 'y'],
    ];
    this.binaries.push('y');
    if (this.sorted.length > 0)
      this.row('nonempty', [[1, 'y'], ...this.sorted.map((_, k): Term => [-1, `x${k}`])], '<=', 0);
    else this.bounds.push('y = 0');
    if (Number.isFinite(req.budget)) this.row('budget', this.costTerms, '<=', req.budget - this.frame);
    this.earnings();
  }

  x(id: string): string {
    return `x${this.index.get(id)}`;
  }

  candidate(id: string): ContextCandidate {
    return this.sorted[this.index.get(id) as number] as ContextCandidate;
  }

  /** A row no assignment satisfies: the requirements cannot hold whatever is chosen. */
  private impossible(): void {
    this.row(`never${this.rows.length}`, [[0, 'y']], '>=', 1);
  }

  private row(name: string, ts: readonly Term[], sense: '<=' | '>=' | '=', rhs: number): void {
    this.rows.push(` ${name}: ${terms(ts)} ${sense} ${rhs}`);
  }

  private oneFormPerContent(required: ReadonlySet<string>): void {
    const forms = new Map<string, number[]>();
    this.sorted.forEach((c, k) => {
      push(forms, c.content_identity, k);
    });
    let n = 0;
    for (const [identity, ks] of forms) {
      const ts = ks.map((k): Term => [1, `x${k}`]);
      if (required.has(identity)) this.row(`form${n++}`, ts, '=', 1);
      else if (ks.length > 1) this.row(`form${n++}`, ts, '<=', 1);
    }
    // A required content no candidate carries can never be present.
    for (const identity of required) if (!forms.has(identity)) this.impossible();
  }

  private gatesAndNames(named: ReadonlySet<string>): void {
    this.sorted.forEach((c, k) => {
      const eligible = passesGates(c);
      if (eligible && named.has(c.candidate_id)) this.bounds.push(`x${k} = 1`);
      if (eligible) return;
      this.bounds.push(`x${k} = 0`);
      if (named.has(c.candidate_id)) this.impossible();
    });
    // A named id that is no candidate can never be present.
    for (const id of named) if (!this.index.has(id)) this.impossible();
  }

  private dependenciesAndGroups(): void {
    let n = 0;
    this.sorted.forEach((c, k) => {
      for (const d of new Set(c.depends_on)) {
        const j = this.index.get(d);
        if (j !== undefined && j !== k)
          this.row(
            `dep${n++}`,
            [
              [1, `x${k}`],
              [-1, `x${j}`],
            ],
            '<=',
            0,
          );
      }
    });
    for (const members of requiredGroups(this.sorted).values()) {
      for (let m = 1; m < members.length; m++) {
        const a = this.x((members[m - 1] as ContextCandidate).candidate_id);
        const b = this.x((members[m] as ContextCandidate).candidate_id);
        this.row(
          `grp${n++}`,
          [
            [1, a],
            [-1, b],
          ],
          '=',
          0,
        );
      }
    }
  }

  /**
   * What counts toward the objective: a PREFERRED or DISCRETIONARY candidate (after promotion)
   * with relevance, earning when its relevance reaches the threshold or, below it, when it holds
   * a coverage key no other member of the bundle holds. "Held alone" is one column per key (w),
   * whose row says that when it is set at most one holder is chosen: with one row per key rather
   * than one per (candidate, key), the model stays linear in the pool's size where shared keys
   * would make it quadratic.
   */
  private earnings(): void {
    const { policy, request } = this.input;
    const named = new Set(request.required_ids);
    const holders = new Map<string, number[]>();
    this.sorted.forEach((c, k) => {
      for (const key of new Set(c.coverage_keys)) push(holders, key, k);
    });
    const alone = new Map<string, string>();
    const aloneColumn = (key: string): string => {
      const known = alone.get(key);
      if (known !== undefined) return known;
      const w = `w${alone.size}`;
      alone.set(key, w);
      this.binaries.push(w);
      const hs = holders.get(key) ?? [];
      // At most one of the key's holders when w is set; any number otherwise.
      if (hs.length > 1)
        this.row(
          `alone${alone.size}`,
          [...hs.map((j): Term => [1, `x${j}`]), [hs.length - 1, w]],
          '<=',
          hs.length,
        );
      return w;
    };
    let n = 0;
    this.sorted.forEach((c, k) => {
      const cls = promotedClass(c, named);
      if ((cls !== 'PREFERRED' && cls !== 'DISCRETIONARY') || c.relevance <= 0) return;
      const target = cls === 'PREFERRED' ? this.preferredTerms : this.discretionaryTerms;
      const level = cls === 'PREFERRED' ? 'preferred' : 'discretionary';
      if (c.relevance >= policy.min_discretionary_relevance) {
        target.push([c.relevance * RELEVANCE_SCALE, `x${k}`]);
        this.earning.set(c.candidate_id, level);
        return;
      }
      const keys = [...new Set(c.coverage_keys)];
      if (keys.length === 0) return;
      this.earning.set(c.candidate_id, level);
      const e = `e${k}`;
      this.binaries.push(e);
      target.push([c.relevance * RELEVANCE_SCALE, e]);
      this.row(
        `earn${n++}`,
        [
          [1, e],
          [-1, `x${k}`],
        ],
        '<=',
        0,
      );
      this.row(`earn${n++}`, [[1, e], ...keys.map((key): Term => [-1, aloneColumn(key)])], '<=', 0);
    });
  }

  /** The model as LP text with an objective and extra rows. */
  text(sense: 'Maximize' | 'Minimize', objective: readonly Term[], extra: readonly string[] = []): string {
    const obj = objective.length > 0 ? terms(objective) : '0 y';
    return [
      sense,
      ` obj: ${obj}`,
      'Subject To',
      ...this.rows,
      ...extra,
      ...(this.rows.length + extra.length === 0 ? [' none: y >= 0'] : []),
      'Bounds',
      ...this.bounds,
      'Binaries',
      ` ${this.binaries.join(' ')}`,
      'End',
    ].join('\n');
  }

  /** An extra row, named. */
  static extraRow(name: string, ts: readonly Term[], sense: '<=' | '>=' | '=', rhs: number): string {
    return ` ${name}: ${terms(ts)} ${sense} ${rhs}`;
  }

  /** The candidate ids a solution admits, in id order. */
  chosen(values: ReadonlyMap<string, number>): string[] {
    return this.sorted.filter((_, k) => (values.get(`x${k}`) ?? 0) > 0.5).map((c) => c.candidate_id);
  }
}
