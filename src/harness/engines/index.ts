/** Engines: strategies too large for one plug-in file (exact, tiered), built on the kit alone. */
export { type Certificate, certify, type Requirement } from './exact/certificate.js';
export { DEFAULT_NODE_LIMIT, solveExact } from './exact/solve.js';
export { compileTiered, DEPTHS, MODES, type Mode, TIERS, type Tier, tierOf } from './tiered.js';
