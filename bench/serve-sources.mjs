// The server run from its sources (`node --import tsx bench/serve-sources.mjs`) with the settings `npm start` gives it
// (server/heap.mjs: the old-space limit, the heap's growth, MALLOC_ARENA_MAX), re-executed for them as npm start
// re-executes its compiled tree: for the benches whose server must run the files this process ran (bench/cold-start.ts
// imagedColdRows: the view image's signature hashes the hand-over module's file, bridge.ts here and bridge.js in the
// compiled tree), so that what they measure of its memory is what an operator's server holds.
import { serveWithHeapSetting } from '../server/heap.mjs';

if (!serveWithHeapSetting()) await import('../server/main.ts');
