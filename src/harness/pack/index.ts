/** Pack: a working tree's pool for one task, compiled within a budget and printed (Markdown, XML, JSON), with the cache a later pack reuses. */

export { cacheDirOf } from './pack-cache-folder.js';
export { PACK_FORMATS, type PackFormat } from './pack-formats.js';
export { PACK_ORDERS, type PackOrder } from './pack-order.js';
export { REQUIRE_MEANING } from './pack-require.js';
export { packContext } from './pack-run.js';
