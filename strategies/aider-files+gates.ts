/** `aider-files` behind the hard gates: the same peer on the candidates that pass every gate (kit's `behindGates`). */
import { behindGates } from '../src/harness/kit/index.js';
import peer from './aider-files.js';

export default behindGates(peer);
