import { compileTiered, type Strategy } from '../src/harness/kit/index.js';

/** The tiered-memory compiler in its recall mode (see src/harness/kit/tiered.ts for the tier map). */
const tiered: Strategy = {
  name: 'tiered-recall',
  description: 'tiered memory (recall mode): fixed head, tiers shed T4, T3, T5, T6 under pressure, no gates',
  assemble: (input) => compileTiered(input, 'recall'),
};

export default tiered;
