/**
 * A rehearsal of `npm run doctor` with no account anywhere: starts local stand-ins for Supabase, Stripe,
 * Resend, Turnstile, Australia Post, Google Places and the deployed site (stand-ins.ts),
 * then runs the real command twice — a well-configured deploy, then one with a mistake per provider — and
 * writes what it printed to doctor-good.txt and doctor-bad.txt.
 *
 *   npx tsx tools/doctor/demo.ts [--out-dir /tmp]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { goodEnv, misconfigure, startDoctorStandIns } from './stand-ins';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs `tsx tools/doctor/run.ts` as `npm run doctor` would, with only the given variables (and PATH). Asynchronously:
 * the stand-ins answering it live in this process.
 */
async function runDoctorCommand(site: string, env: Record<string, string>): Promise<{ output: string; status: number | null }> {
  const envFile = join(mkdtempSync(join(tmpdir(), 'doctor-demo-')), '.env');
  writeFileSync(
    envFile,
    `${Object.entries(env)
      .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
      .join('\n')}\n`,
  );
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['tools/doctor/run.ts', '--site', site, '--env-file', envFile], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const status = await new Promise<number | null>((done) => child.on('close', done));
  return { output, status };
}

const { values } = parseArgs({ options: { 'out-dir': { type: 'string', default: tmpdir() } } });
const outDir = values['out-dir'];

const standIns = await startDoctorStandIns();
try {
  const good = await runDoctorCommand(standIns.urls.site, goodEnv(standIns));
  writeFileSync(join(outDir, 'doctor-good.txt'), `$ npm run doctor -- --site ${standIns.urls.site} --env-file .env   # exit ${good.status}\n${good.output}`);
  console.log(`— well-configured deploy (exit ${good.status}) —\n${good.output}`);

  const bad = await runDoctorCommand(standIns.urls.site, misconfigure(standIns));
  writeFileSync(join(outDir, 'doctor-bad.txt'), `$ npm run doctor -- --site ${standIns.urls.site} --env-file .env   # exit ${bad.status}\n${bad.output}`);
  console.log(`— misconfigured deploy (exit ${bad.status}) —\n${bad.output}`);
  console.log(`Written: ${join(outDir, 'doctor-good.txt')}, ${join(outDir, 'doctor-bad.txt')}`);
} finally {
  await standIns.close();
}
