import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's headless Chromium, as the console's tests and bench drive it: WebGL through
 * SwiftShader (sigma draws with it), nothing of Chromium's own reaching the network. `extraArgs`
 * go after these (bench/console.ts adds --disable-gpu-compositing).
 */
export async function launchChromium(profile: string, extraArgs: string[] = []): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: these tests need Debian's chromium package (apt-get install -y chromium); .ci/run installs it`);
  }
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}
