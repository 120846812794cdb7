/**
 * Headless Chromium for the demo page test and bench/render, from npm alone: `@sparticuz/chromium`
 * carries a headless Chromium in its tarball, plus the NSS/NSPR/expat libraries it links (meant for
 * AWS Lambda, in `bin/al2023.tar.br`), which a minimal Debian lacks. They are extracted once into
 * a cache folder; Chromium then runs with `LD_LIBRARY_PATH` on those libraries and a fontconfig
 * of ours that knows only the project's bundled fonts (assets/fonts), so pages look the same on
 * every machine. `CHROMIUM_PATH` picks a system Chromium instead.
 */
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { extract } from 'tar-fs';
import { findFontDir } from '../../src/render/ChartRenderer.js';

/** No sandbox (containers run as root), no GPU, and nothing that reaches the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-zygote',
];

/** How to start the browser: the binary and the environment it needs. */
export interface ChromiumSetup {
  executablePath: string;
  env: Record<string, string>;
  /** Where it came from, for messages. */
  source: 'npm' | 'CHROMIUM_PATH';
}

const require = createRequire(import.meta.url);

/** The package's folder (its exports map hides package.json from require.resolve). */
function packageDir(): string {
  return join(dirname(require.resolve('@sparticuz/chromium')), '..', '..');
}

async function unbrotli(from: string, to: string): Promise<void> {
  await pipeline(createReadStream(from), createBrotliDecompress(), createWriteStream(to, { mode: 0o755 }));
}

async function untarBrotli(from: string, to: string): Promise<void> {
  await pipeline(createReadStream(from), createBrotliDecompress(), extract(to));
}

/**
 * Extracts the npm Chromium and its libraries once per version; concurrent callers (jest workers)
 * each extract into a folder of their own and the first rename wins.
 */
async function npmChromium(): Promise<ChromiumSetup> {
  const { version } = JSON.parse(await readFile(join(packageDir(), 'package.json'), 'utf8')) as { version: string };
  const home = join(tmpdir(), `pivotbot-chromium-${version}`);
  if (!existsSync(join(home, 'ready'))) {
    await mkdir(tmpdir(), { recursive: true });
    const work = await mkdtemp(`${home}.partial-`);
    try {
      const bin = join(packageDir(), 'bin');
      await unbrotli(join(bin, 'chromium.br'), join(work, 'chromium'));
      await chmod(join(work, 'chromium'), 0o755);
      await untarBrotli(join(bin, 'al2023.tar.br'), work);
      await mkdir(join(work, 'fontconfig-cache'));
      await writeFile(
        join(work, 'fonts.conf'),
        `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${findFontDir()}</dir>\n  <cachedir>${join(home, 'fontconfig-cache')}</cachedir>\n</fontconfig>\n`,
      );
      await writeFile(join(work, 'ready'), `${version}\n`);
      await rename(work, home).catch(async (error: NodeJS.ErrnoException) => {
        if (!existsSync(join(home, 'ready'))) throw error;
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  return {
    executablePath: join(home, 'chromium'),
    env: {
      LD_LIBRARY_PATH: [join(home, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: join(home, 'fonts.conf'),
    },
    source: 'npm',
  };
}

/** The Chromium to use: `CHROMIUM_PATH` when set, else the one from npm. */
export async function chromiumSetup(): Promise<ChromiumSetup> {
  const system = process.env.CHROMIUM_PATH;
  if (system) {
    if (!existsSync(system)) throw new Error(`CHROMIUM_PATH=${system} does not exist`);
    return { executablePath: system, env: {}, source: 'CHROMIUM_PATH' };
  }
  return npmChromium();
}

/**
 * Launches headless Chromium under playwright-core.
 *
 * @example const browser = await launchChromium(); const page = await browser.newPage();
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const setup = await chromiumSetup();
  return chromium.launch({
    executablePath: setup.executablePath,
    args: CHROMIUM_ARGS,
    env: { ...(process.env as Record<string, string>), ...setup.env },
  });
}
