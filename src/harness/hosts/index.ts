/** Hosts: strategy discovery, and strategies in processes of their own (started, locked down, timed, kept warm), with the guard and the rules of an answer. */

export { type Answer, cutMessage, cutText, Malformed, readSelection } from './answer-rules.js';
export { assembleAwaited, assembleGuarded } from './guard.js';
export { Hosts, processCount, type StrategyHosts } from './hosts.js';
export { PERMISSION_FLAG, readable } from './launch.js';
export { inside } from './links.js';
export {
  infoOf,
  listStrategies,
  loadStrategies,
  pickStrategies,
  registryOrder,
} from './registry.js';
export { caseInputs, type Inputs, strategyInput } from './strategy-input.js';
export { WARM_KEEP, WarmHosts } from './warm-hosts.js';
