/** Kit: the only thing a strategy imports (no loaders, no file system, no ledger code). */
// The plug-in types, the shared ruler, the baselines' moves, trace builders, the ledger-free
// legality and objective, the engines too large for one plug-in file (tiered, exact), and the
// compiler pieces a strategy may use. A strategy sees the ledger only as its input, and only
// when it declares `readsLedger`. The rest of the harness uses the same door.
export {
  byCandidateId,
  type CompileOutput,
  type ContextCandidate,
  compileContext,
  dependencyClosure,
  type FailureReason,
  gate,
  headerCost,
  itemRenderCost,
  missingSources,
  orderByRole,
  promotedClass,
  REQUIRED_MISSING_MODES,
  type RequiredMissing,
  type RequirementClass,
  renderedCost,
  renderedIncrement,
  requiredGroupOf,
  requiredGroups,
  separatorCost,
  type TraceEntry,
  walkClosure,
} from '../../compiler/index.js';
export type {
  Admission,
  Annotations,
  CaseLedger,
  EvalClass,
  IdentityTruth,
  Refusal,
  Selection,
  Strategy,
  StrategyInput,
  WaitingStrategy,
} from '../types.js';
export {
  baselineAnswer,
  defaultFormPool,
  greedyFill,
  RANKED_DEPTH,
  rankBy,
  relevanceFill,
  relevanceRanking,
  withRanking,
} from './baselines.js';
export { behindGates } from './behind-gates.js';
export {
  AnalysedTexts,
  type Bm25Variant,
  bm25Selector,
  documentText,
  type Fill,
  HITS,
  type IndexChoice,
  ranking,
  sourceText,
  splitPool,
} from './bm25.js';
export { selectionOf } from './compiler.js';
export { hullBound, hullGreedies, hullGreedy } from './exact/anytime.js';
export { type CertifyLimits, certified, DEFAULT_CERTIFY_LIMITS } from './exact/certified.js';
export type { Certificate, ExactEngine, ExactOptions, Requirement } from './exact/exact-engine.js';
export { Problem } from './exact/problem.js';
export { auditOf, legalityProblems, missingRequired, type Needed, requiredContents } from './legality.js';
export { bm25Scores, type Indexed, indexed, queryTerms } from './lucene.js';
export { compareIdLists, compareObjectives, EPSILON, objectiveOf } from './objective.js';
export { costOf, eligible } from './ruler.js';
export { baselineTrace, selectionTrace, type Why } from './strategy-trace.js';
export {
  compileTiered,
  DEPTHS,
  MODES,
  type Mode,
  TIERED_NAMES,
  TIERS,
  type Tier,
  tierOf,
} from './tiered.js';

/**
 * The exact engine (`solveExact`, `leastLegalCost`, their limits), loaded when first asked for:
 * it instantiates HiGHS (WebAssembly, a good part of a second), which nothing that does not
 * solve should pay for. A strategy awaits it at its top level:
 * `const { solveExact } = await loadExact();`
 */
export const loadExact = () => import('./exact/exact-engine.js');

export { type Language, languageOf } from './languages.js';
export type { Capture, Parsers, QueryRunner } from './repo-graph.js';

/**
 * Code as a graph (`loadParsers`, the tree-sitter grammars; `queryRunner`, queries over file
 * texts; `personalPagerank`), loaded when first asked for, as the grammars are WebAssembly:
 * `const { queryRunner } = await loadRepoGraph();`
 */
export const loadRepoGraph = () => import('./repo-graph.js');

/**
 * Aider's ranking and prompt (`aider-ranking.ts`), shared by the Aider peers; loaded when asked
 * for, as it loads the grammars: `const { aiderPrompt, rankedOnce } = await loadAider();`.
 */
export const loadAider = () => import('./aider-ranking.js');
export type { AiderPrompt, File as AiderFile, RankedTag } from './aider-ranking.js';
