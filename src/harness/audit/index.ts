/** Audit: a compilation checked against its inputs (validate), the inputs checked (check), a run held to the published one (verify), golden conformance. */

export { checkCompilation, problemText } from './compilation.js';
export { runConformance } from './conformance-check.js';
export { firstDifference, same } from './diff.js';
export { validateDocumentAwaited } from './document.js';
export { differences, rememberCompilerRun } from './expected.js';
export { derivedExtrasAwaited, extrasVerdict } from './extras.js';
export { validateStored, validationText } from './stored.js';
export { verifyRun } from './verify-run.js';
