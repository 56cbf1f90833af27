import type { CompilerPolicy } from './compiler-types.js';
import {
  DEFAULT_ORDER_ROLES,
  DEFAULT_POLICY_VERSION,
  REPAIR_DROP_LAST_DISCRETIONARY,
  SCHEMA,
} from './compiler-vocabulary.js';

/** The policy record's read defaults, which are exactly `compiler-policy-v1` (docs/compiler.md §2.3). */
export const defaultPolicy = (): CompilerPolicy => ({
  schema_version: SCHEMA.policy,
  policy_version: DEFAULT_POLICY_VERSION,
  min_discretionary_relevance: 0.3,
  mandatory_form: 'cheapest',
  order_roles: [...DEFAULT_ORDER_ROLES],
  repair: REPAIR_DROP_LAST_DISCRETIONARY,
  required_missing: 'omit',
  pricing: 'declared',
  frame: 'v1',
});
