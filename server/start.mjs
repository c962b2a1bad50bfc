// `npm start` (and `parley serve`, through @parley/server/start): brings the compiled tree
// (.build/, scripts/build.mjs) up to date with the sources, then serves from it. When nothing
// changed that costs a few milliseconds of stat calls; a source edited since the last build is
// compiled first, so a start never runs stale code. The server then runs with the heap setting
// (heap.mjs: PARLEY_HEAP_MB), in a child process of this one when it has to be re-executed for it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_DIR, build } from '../scripts/build.mjs';
import { serveWithHeapSetting } from './heap.mjs';

await build();
if (!serveWithHeapSetting()) await import(pathToFileURL(path.join(BUILD_DIR, 'server', 'main.js')).href);
