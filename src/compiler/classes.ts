/**
 * Requirement classes after promotion (docs/compiler.md §6): a candidate the request names is
 * REQUIRED unless it is already MANDATORY. Only the named form is promoted, not its siblings.
 */
import type { ContextCandidate, RequirementClass } from './compiler-types.js';
import { REQUIREMENT_CLASSES } from './compiler-vocabulary.js';

export const promotedClass = (c: ContextCandidate, named: ReadonlySet<string>): RequirementClass =>
  named.has(c.candidate_id) && c.requirement !== 'MANDATORY' ? 'REQUIRED' : c.requirement;

/** The stronger of two classes (MANDATORY strongest). */
export const strongerClass = (a: RequirementClass, b: RequirementClass): RequirementClass =>
  REQUIREMENT_CLASSES.indexOf(b) < REQUIREMENT_CLASSES.indexOf(a) ? b : a;
