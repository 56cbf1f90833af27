/**
 * What the exact engine offers a strategy or the generator, in one module that the kit loads on
 * demand (`loadExact`): importing it instantiates HiGHS, WebAssembly that takes a good part of a
 * second, which no strategy that does not solve should pay for.
 */
export type { Certificate, Requirement } from './certificate.js';
export { settleByIlp } from './certified-ilp.js';
export { leastLegalCost } from './optimise.js';
export {
  DEFAULT_ILP_LIMITS,
  DEFAULT_NODE_LIMIT,
  EXACT_ENGINES,
  type ExactEngine,
  type ExactOptions,
  solveExact,
} from './solve.js';
