/**
 * Debian's Chromium and the flags every browser run uses here.
 * Nothing is downloaded; background networking is off, so a run never reaches the internet by itself.
 */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * The browser tests run headless only, so they use Debian's Chromium headless shell, as Playwright does by
 * default: the same engine without the full browser around it, at about half the CPU a page.
 */
export const HEADLESS_SHELL_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium-headless-shell';

/** Flags shared by Playwright and Lighthouse (Playwright adds its own headless switch). */
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Lighthouse launches Chromium itself and needs the headless mode spelled out. */
export const LIGHTHOUSE_CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];
