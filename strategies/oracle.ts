import {
  byCandidateId,
  type ContextCandidate,
  costOf,
  dependencyClosure,
  eligible,
  missingSources,
  renderedIncrement,
  requiredGroupOf,
  requiredGroups,
  type Strategy,
} from '../src/harness/kit/index.js';

const byTokensThenId = (a: ContextCandidate, b: ContextCandidate) =>
  a.token_count - b.token_count || byCandidateId(a, b);

/**
 * The perfect-knowledge ceiling: it reads the hidden ledger and takes exactly the must content,
 * then the should content that fits, each in the ledger's minimum sufficient form when a legal
 * one exists, never anything optional, distracting or harmful. Evaluation only.
 */
const oracle: Strategy = {
  name: 'oracle',
  description: 'reads the hidden ledger: must and should content in its minimum legal form (a ceiling)',
  readsLedger: true,
  assemble(input) {
    const { ledger, candidates, request } = input;
    if (ledger === undefined) throw new Error('the oracle needs the ledger');
    const lookup = new Map(candidates.map((c) => [c.candidate_id, c]));
    const missing = missingSources(request.required_ids, (id) => lookup.has(id));
    if (missing !== null) {
      const { reason, blocking, diagnostic } = missing;
      return { refusal: { reason, blocking_ids: blocking, diagnostic } };
    }
    const legalForms = new Map<string, ContextCandidate[]>();
    for (const c of candidates) {
      if (!eligible(c)) continue;
      const forms = legalForms.get(c.content_identity);
      if (forms === undefined) legalForms.set(c.content_identity, [c]);
      else forms.push(c);
    }
    const mandatory = [
      ...new Set(candidates.filter((c) => c.requirement === 'MANDATORY').map((c) => c.content_identity)),
    ];
    const unplaceable = mandatory.sort().find((identity) => !legalForms.has(identity));
    if (unplaceable !== undefined) {
      const diagnostic = `mandatory ${unplaceable}: no legal form`;
      return { refusal: { reason: 'NO_LEGAL_REPRESENTATION', blocking_ids: [unplaceable], diagnostic } };
    }
    const selected: ContextCandidate[] = [];
    const chosen = new Set<string>();
    const contents = new Set<string>();
    let cost = costOf([], input);
    const groups = requiredGroups(candidates);

    /** The cheapest legal form, in the minimum form when one is legal, with group and closure. */
    const take = (identity: string): 'taken' | 'no legal form' | 'does not fit' => {
      const forms = legalForms.get(identity) ?? [];
      if (forms.length === 0) return 'no legal form';
      const wanted = ledger.identity_truth[identity]?.min_representation;
      const minimal = forms.filter((f) => f.representation_id === wanted);
      const pick = [...(minimal.length > 0 ? minimal : forms)].sort(byTokensThenId)[0] as ContextCandidate;
      const g = requiredGroupOf(pick);
      const starts = g === null ? [pick] : [...(groups.get(g) ?? [])].sort(byCandidateId);
      const addition = new Map<string, ContextCandidate>();
      for (const s of starts) {
        for (const id of dependencyClosure(s.candidate_id, lookup)) {
          if (!chosen.has(id) && !addition.has(id)) addition.set(id, lookup.get(id) as ContextCandidate);
        }
      }
      let after = cost;
      for (const [k, c] of [...addition.values()].entries())
        after += renderedIncrement(c, selected.length + k, input.policy);
      if (after > input.budget) return 'does not fit';
      for (const c of addition.values()) {
        selected.push(c);
        chosen.add(c.candidate_id);
        contents.add(c.content_identity);
      }
      cost = after;
      return 'taken';
    };

    const classed = (wanted: string) =>
      Object.entries(ledger.identity_truth)
        .filter(([, t]) => t.eval_class === wanted)
        .map(([identity]) => identity)
        .sort();
    for (const identity of classed('must')) {
      if (contents.has(identity)) continue;
      const outcome = take(identity);
      if (outcome === 'taken') continue;
      // The spec names only the misfit; a must content with no legal form at all is ours to name.
      const reason = outcome === 'no legal form' ? 'REQUIRED_INELIGIBLE' : 'INSUFFICIENT_BUDGET';
      return { refusal: { reason, blocking_ids: [identity], diagnostic: `must ${identity}: ${outcome}` } };
    }
    for (const identity of classed('should')) if (!contents.has(identity)) take(identity);
    return { admitted: selected.map((c) => c.candidate_id) };
  },
};

export default oracle;
