// The console as the server serves it at /console (server/routes/console.ts): src/main.ts and
// everything it imports bundled into one minified script, beside the page, its stylesheet and the
// country outlines the map draws. Nothing is fetched from elsewhere at run time. `npm run build`
// (and so npm's prepare) runs this; dist/ is gitignored.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const require = createRequire(import.meta.url);

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [path.join(here, 'src', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  outfile: path.join(dist, 'console.js'),
  legalComments: 'linked',
  logLevel: 'warning',
});
for (const file of ['index.html', 'console.css']) copyFileSync(path.join(here, 'src', file), path.join(dist, file));
// Natural Earth 1:110m outlines (public domain, packaged by world-atlas under ISC)
copyFileSync(require.resolve('world-atlas/countries-110m.json'), path.join(dist, 'countries-110m.json'));
console.log(`parley: console bundled into ${path.relative(process.cwd(), dist)}/`);
