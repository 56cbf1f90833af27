import type { ContextCandidate } from '../../compiler-types.js';
import type { Fact } from '../../pool.js';

/** A unit of the pass: a single candidate or a required group, re-evaluated when it must be. */
export interface Unit {
  /** Candidate id of a single, or the group id. */
  readonly name: string;
  /** Every candidate that may ever be a member (a group's whole membership). */
  readonly potential: readonly ContextCandidate[];
  members: string[];
  nodes: readonly string[];
  cost: number;
  block: string;
  newCoverage: number;
  bestRelevance: number;
  present: boolean;
  version: number;
  /** A single's fact, for the quick path. */
  readonly lone: Fact | undefined;
}

/** A unit before its first evaluation. */
export function blank(name: string, potential: readonly ContextCandidate[], lone: Fact | undefined): Unit {
  return {
    lone,
    name,
    potential,
    members: [],
    nodes: [],
    cost: 0,
    block: '',
    newCoverage: 0,
    bestRelevance: 0,
    present: true,
    version: 0,
  };
}
