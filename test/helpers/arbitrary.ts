import fc from 'fast-check';
import type { ContextCandidate, ContextRequest, RequirementClass } from '../../src/compiler/index.js';
import { cand, req } from './pool.js';

export { runs } from './tier.js';

const BANDS: RequirementClass[] = [
  'MANDATORY',
  'REQUIRED',
  'PREFERRED',
  'PREFERRED',
  'DISCRETIONARY',
  'DISCRETIONARY',
];
const ROLES = ['instruction', 'task', 'state', 'evidence', 'support', 'tool'];

const specArb = fc.record({
  identity: fc.nat(7),
  band: fc.nat(BANDS.length - 1),
  tokens: fc.integer({ min: 0, max: 120 }),
  rank: fc.nat(3),
  floor: fc.oneof(fc.constant(0), fc.constant(0), fc.nat(3)),
  gate: fc.oneof(fc.constant(-1), fc.constant(-1), fc.constant(-1), fc.nat(2)),
  deps: fc.array(fc.nat(40), { maxLength: 2 }),
  group: fc.oneof(fc.constant(-1), fc.nat(2)),
  groupRequired: fc.boolean(),
  coverage: fc.array(fc.nat(4), { maxLength: 2 }),
  relevance: fc.oneof(fc.constantFrom(0, 0.3, 1), fc.double({ min: 0, max: 1, noNaN: true })),
  role: fc.nat(ROLES.length - 1),
});

export interface RandomCase {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
}

/**
 * Small random pools that pass input validation: several forms per content, every gate, form
 * floors, dependencies (cycles included), required groups (one declared class each), coverage
 * keys, promotion by `required_ids`, and budgets from starved to roomy.
 */
export const randomCase = (maxCandidates = 12): fc.Arbitrary<RandomCase> =>
  fc
    .record({
      specs: fc.array(specArb, { minLength: 1, maxLength: maxCandidates }),
      named: fc.array(fc.nat(40), { maxLength: 3 }),
      budget: fc.integer({ min: 0, max: 700 }),
    })
    .map(({ specs, named, budget }) => {
      const ids = specs.map((_, k) => `c${String(k).padStart(2, '0')}`);
      const groupBand = new Map<number, RequirementClass>();
      const candidates = specs.map((s, k) => {
        let band = BANDS[s.band] as RequirementClass;
        const grouped = s.group >= 0 && s.groupRequired;
        if (grouped) {
          band = groupBand.get(s.group) ?? band;
          groupBand.set(s.group, band);
        }
        return cand(ids[k] as string, {
          content_identity: `i${s.identity}`,
          requirement: band,
          token_count: s.tokens,
          form_rank: s.rank,
          min_rank: s.floor,
          scope_eligible: s.gate !== 0,
          freshness_eligible: s.gate !== 1,
          authority_eligible: s.gate !== 2,
          depends_on: [...new Set(s.deps.map((d) => ids[d % ids.length] as string))],
          group_id: s.group >= 0 ? `g${s.group}` : null,
          group_required: grouped,
          coverage_keys: s.coverage.map((c) => `k${c}`),
          relevance: s.relevance,
          order_role: ROLES[s.role] as string,
        });
      });
      const requiredIds = [...new Set(named.map((n) => ids[n % ids.length] as string))];
      return { request: req(budget, { required_ids: requiredIds }), candidates };
    });

/**
 * Pools made to tie: relevance and counts from a handful of values, dependencies that may point
 * at themselves, required groups, named ids, budgets from nothing to enough. Where the fast and
 * the reference engines could part ways is in how they break ties and in what repair drops.
 */
export const tieCase = (): fc.Arbitrary<RandomCase> =>
  fc
    .record({
      n: fc.integer({ min: 2, max: 14 }),
      seeds: fc.array(
        fc.record({
          identity: fc.nat(9),
          band: fc.nat(BANDS.length - 1),
          tokens: fc.constantFrom(0, 5, 10, 10, 20),
          relevance: fc.constantFrom(0, 0.29, 0.3, 0.5, 0.5, 0.9),
          deps: fc.array(fc.nat(13), { maxLength: 3 }),
          group: fc.oneof(fc.constant(-1), fc.nat(2)),
          keys: fc.array(fc.nat(3), { maxLength: 2 }),
          gate: fc.oneof(fc.constant(-1), fc.constant(-1), fc.constant(-1), fc.nat(3)),
          role: fc.nat(3),
        }),
        { minLength: 14, maxLength: 14 },
      ),
      named: fc.array(fc.nat(13), { maxLength: 2 }),
      budget: fc.nat(400),
    })
    .map(({ n, seeds, named, budget }) => {
      const ids = Array.from({ length: n }, (_, k) => `c${String(k).padStart(2, '0')}`);
      const groupBand = new Map<number, RequirementClass>();
      const candidates = seeds.slice(0, n).map((s, k) => {
        let band = BANDS[s.band] as RequirementClass;
        if (s.group >= 0) {
          band = groupBand.get(s.group) ?? band;
          groupBand.set(s.group, band);
        }
        return cand(ids[k] as string, {
          content_identity: `i${s.identity % (n + 1)}`,
          requirement: band,
          token_count: s.tokens,
          relevance: s.relevance,
          depends_on: [...new Set(s.deps.map((d) => ids[d % n] as string))],
          // Group names sort apart from member ids, so a tie broken by the wrong one shows.
          group_id: s.group >= 0 ? `z${s.group}` : null,
          group_required: s.group >= 0,
          coverage_keys: s.keys.map((x) => `k${x}`),
          scope_eligible: s.gate !== 0,
          freshness_eligible: s.gate !== 1,
          authority_eligible: s.gate !== 2,
          min_rank: s.gate === 3 ? 4 : 0,
          order_role: ROLES[s.role] as string,
        });
      });
      const requiredIds = [...new Set(named.map((x) => ids[x % n] as string))];
      return { request: req(budget, { required_ids: requiredIds }), candidates };
    });
