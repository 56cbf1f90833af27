/** A strategy run behind the hard gates: `<name>+gates` (issue 36). */
import type { Selection, StrategyInput, WaitingStrategy } from '../types.js';
import { eligible } from './ruler.js';
import { selectionTrace, type Why } from './strategy-trace.js';

/** The suffix of a strategy run behind the hard gates (`behindGates`). */
const GATED_SUFFIX = '+gates';

/**
 * `<name>+gates`: the strategy on the candidates that pass every hard gate, what a careful user
 * of a peer does with the verdicts each candidate carries. Its file is
 * `strategies/<name>+gates.ts`, `export default behindGates(peer)`. The request goes as it is: an
 * id it names that failed a gate is simply absent from the pool the strategy sees. A trace the
 * strategy wrote covers the candidates it saw; it is written again over every candidate, its
 * reasons kept and the filtered ones rejected by their gate.
 */
export function behindGates<S extends WaitingStrategy>(strategy: S): S {
  const name = `${strategy.name}${GATED_SUFFIX}`;
  const traced = (input: StrategyInput, answer: Selection): Selection => {
    if ('refusal' in answer || answer.trace === undefined) return answer;
    const why = new Map<string, Why>(
      answer.trace
        .filter((e) => e.decision !== 'ADMITTED')
        .map((e) => [e.candidate_id, { code: e.reason_code, detail: e.reason_detail }]),
    );
    const trace = selectionTrace(input, answer.admitted, name, why, answer.layout ?? 'policy');
    return { ...answer, trace };
  };
  return {
    ...strategy,
    name,
    description: `${strategy.description}; on the candidates that pass every hard gate`,
    assemble: (input: StrategyInput) => {
      const answer = strategy.assemble({ ...input, candidates: input.candidates.filter(eligible) });
      return answer instanceof Promise ? answer.then((a) => traced(input, a)) : traced(input, answer);
    },
  };
}
