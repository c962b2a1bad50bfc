// How the plain-JavaScript entry points of worker threads and child processes load the engine's
// TypeScript modules. A thread or a child does not inherit its parent's loader: from the sources
// (vitest, tsx, `npm run dev`) tsx's scoped tsImport loads them, so that every module (and every
// error class) exists once in the thread; from the compiled tree (.build/, scripts/build.mjs, what
// `npm start` runs) this file and its callers are copies there, the module's JavaScript sits beside
// them and Node loads it natively, without tsx's round trip per module.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The module `specifier` (a .ts path or URL, relative to `base`), compiled when the compiled tree holds it. */
export async function loadModule(specifier, base) {
  const url = new URL(specifier, base);
  if (url.pathname.endsWith('.ts')) {
    const compiled = new URL(`${url.pathname.slice(0, -3)}.js`, url);
    if (!existsSync(fileURLToPath(compiled))) {
      const { tsImport } = await import('tsx/esm/api');
      return tsImport(url.href, base);
    }
    return import(compiled.href);
  }
  return import(url.href);
}
