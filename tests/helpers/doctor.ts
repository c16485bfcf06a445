/**
 * `npm run doctor` against local stand-ins that answer as each provider's documentation shows
 * (tools/doctor/stand-ins.ts), for the doctor's test files: each calls `useDoctorStandIns()` once, then runs the
 * doctor with `doctor(env)` and reads a line of its report with `line`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type DoctorReport, runDoctor } from '../../tools/doctor/doctor';
import { type DoctorStandIns, goodState, startDoctorStandIns } from '../../tools/doctor/stand-ins';
import type { CheckResult } from '../../tools/doctor/types';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The running stand-ins (a live binding: set by `useDoctorStandIns`'s beforeAll). */
export let standIns: DoctorStandIns;
/** A project folder of the test's own: this repository's netlify.toml and a content/ folder with no sample copy. */
export let project: string;

export function makeProject(files: Record<string, string> = {}): string {
  const folder = mkdtempSync(join(tmpdir(), 'doctor-project-'));
  copyFileSync(join(ROOT, 'netlify.toml'), join(folder, 'netlify.toml'));
  // The build's headers file, which carries the Content-Security-Policy (npm test builds before it tests).
  mkdirSync(join(folder, 'dist'));
  copyFileSync(join(ROOT, 'dist', '_headers'), join(folder, 'dist', '_headers'));
  const all = { 'content/blog/welcome.mdx': '---\ntitle: Welcome\n---\n\nHello.\n', ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

/** Starts the stand-ins for the file, and gives each test the state of a well-configured deploy. */
export function useDoctorStandIns(): void {
  beforeAll(async () => {
    standIns = await startDoctorStandIns();
    project = makeProject();
  });

  afterAll(async () => {
    await standIns.close();
  });

  beforeEach(() => {
    standIns.state = goodState();
  });
}

export function doctor(env: Record<string, string | undefined>, options: { rootDir?: string; timeoutMs?: number } = {}): Promise<DoctorReport> {
  return runDoctor({ env, site: standIns.urls.site, rootDir: options.rootDir ?? project, timeoutMs: options.timeoutMs ?? 5000 });
}

export function line(report: DoctorReport, name: string): CheckResult {
  const found = report.results.find((result) => result.name === name);
  if (!found) throw new Error(`No "${name}" line in:\n${report.text}`);
  return found;
}
