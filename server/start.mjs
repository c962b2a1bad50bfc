// `npm start` (and `parley serve`, through @parley/server/start): brings the compiled tree
// (.build/, scripts/build.mjs) up to date with the sources, then serves from it. When nothing
// changed that costs a few milliseconds of stat calls; a source edited since the last build is
// compiled first, so a start never runs stale code.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_DIR, build } from '../scripts/build.mjs';

await build();
await import(pathToFileURL(path.join(BUILD_DIR, 'server', 'main.js')).href);
