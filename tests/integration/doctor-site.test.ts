/**
 * `npm run doctor`: the live site's headers against the build's, the variables left unset and the checks skipped
 * for them, providers that do not answer, content still marked as sample, and the command itself with its exit
 * codes. No network: every address is 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../tools/doctor/doctor';
import { DOCTOR_KEYS, goodEnv, goodState, misconfigure, netlifyHeaders } from '../../tools/doctor/stand-ins';
import { doctor, line, makeProject, project, ROOT, standIns, useDoctorStandIns } from '../helpers/doctor';
import { startFakeProvider } from '../helpers/fake-provider';

useDoctorStandIns();

describe('the live site', () => {
  it("a Content-Security-Policy that differs from the build's dist/_headers fails, naming the directives that differ", async () => {
    const headers = netlifyHeaders();
    standIns.state.siteHeaders = {
      ...headers,
      'Content-Security-Policy': headers['Content-Security-Policy']!.replace(' https://*.google-analytics.com', '').replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
    };
    const result = line(await doctor(goodEnv(standIns)), 'Security headers');
    expect(result.status).toBe('fail');
    expect(result.detail).toBe(
      "Content-Security-Policy differs from what the build's dist/_headers sets: connect-src lacks https://*.google-analytics.com; frame-ancestors lacks 'none' and adds 'self'",
    );
  });

  it("a project not built yet fails, since the Content-Security-Policy is in the build's dist/_headers", async () => {
    const unbuilt = makeProject();
    rmSync(join(unbuilt, 'dist'), { recursive: true });
    const result = line(await doctor(goodEnv(standIns), { rootDir: unbuilt }), 'Security headers');
    expect(result).toMatchObject({ status: 'fail', detail: "neither netlify.toml nor the build's dist/_headers sets Content-Security-Policy for /*" });
    expect(result.fix).toContain('Run npm run build (it writes the Content-Security-Policy into dist/_headers)');
  });

  it('a changed X-Frame-Options fails, quoting both values', async () => {
    standIns.state.siteHeaders = { ...netlifyHeaders(), 'X-Frame-Options': 'SAMEORIGIN' };
    expect(line(await doctor(goodEnv(standIns)), 'Security headers').detail).toBe('X-Frame-Options is "SAMEORIGIN", netlify.toml says "DENY"');
  });

  it('a plain-http address other than this machine fails: the site must be checked over https', async () => {
    const report = await runDoctor({ env: goodEnv(standIns), site: 'http://shop.invalid', rootDir: project, timeoutMs: 500 });
    expect(line(report, 'Site address')).toMatchObject({ status: 'fail', fix: 'Run the doctor with --site https://shop.invalid' });
  });
});

describe('variables, skipped checks and unreachable providers', () => {
  it('optional services left unset are one warning, and their checks are skipped saying why', async () => {
    const env: Record<string, string | undefined> = { ...goodEnv(standIns), AUSPOST_API_KEY: undefined, GOOGLE_PLACES_API_KEY: '', NOTIFY_EMAIL_TO: undefined, PUBLIC_GA4_ID: undefined };
    const report = await doctor(env);
    expect(line(report, 'Optional variables')).toMatchObject({ status: 'warn' });
    expect(line(report, 'Optional variables').detail).toBe(
      [
        'AUSPOST_API_KEY not set: shipping is priced from the fixed rate card, not Australia Post',
        'GOOGLE_PLACES_API_KEY not set: shoppers type their address by hand (no suggestions)',
        "NOTIFY_EMAIL_TO not set: the publisher's notices (paid orders, contact messages, new subscribers) go to EMAIL_FROM",
        'PUBLIC_GA4_ID not set: no analytics',
      ].join('\n'),
    );
    expect(line(report, 'Australia Post rates')).toEqual({
      name: 'Australia Post rates',
      status: 'skip',
      detail: 'AUSPOST_API_KEY is not set: shipping is priced from the fixed rate card, not Australia Post',
    });
    expect(line(report, 'Google Places').status).toBe('skip');
    expect(report.text).toContain('- Australia Post rates: skipped: AUSPOST_API_KEY is not set');
    expect(report.exitCode).toBe(0);
  });

  it('a required provider without its variables: the variables line fails and the provider line is skipped', async () => {
    const report = await doctor({ ...goodEnv(standIns), RESEND_API_KEY: undefined, EMAIL_FROM: undefined });
    expect(line(report, 'Required variables')).toMatchObject({ status: 'fail', detail: 'not set: RESEND_API_KEY, EMAIL_FROM' });
    expect(line(report, 'Resend sending domain')).toMatchObject({ status: 'skip', detail: 'needs RESEND_API_KEY and EMAIL_FROM (see Required variables)' });
  });

  it('a provider that does not answer in time fails the line (nothing was verified) and the run goes on', async () => {
    const silent = await startFakeProvider(() => undefined);
    try {
      const report = await doctor({ ...goodEnv(standIns), DOCTOR_RESEND_API_URL: silent.url }, { timeoutMs: 300 });
      expect(line(report, 'Resend sending domain')).toMatchObject({ status: 'fail', detail: `could not reach Resend (${silent.url}): no answer within 0.3 s` });
      expect(line(report, 'Resend sending domain').fix).toContain('DOCTOR_RESEND_API_URL');
      expect(line(report, 'Stripe webhook').status).toBe('pass');
    } finally {
      await silent.close();
    }
  });
});

describe('content still marked as sample', () => {
  it('lists every content file whose frontmatter or YAML says sample: true, as a warning to replace or confirm', async () => {
    const folder = makeProject({
      'content/blog/first-post.mdx': '---\ntitle: First post\nsample: true\n---\n\nLorem ipsum.\n',
      'content/landing/catholic-books-perth.yaml': 'title: Catholic books in Perth\nsample: true\nblocks: []\n',
      'content/site/about.yaml': 'title: About\nsample: false\n',
      'content/blog/how-we-write.mdx': '---\ntitle: How we write\n---\n\nA post that shows `sample: true` in its body is not marked.\n',
    });
    const result = line(await doctor(goodEnv(standIns), { rootDir: folder }), 'Sample content');
    expect(result.status).toBe('warn');
    expect(result.detail).toBe('2 files are still marked sample: true — replace or confirm before going live:\n  content/blog/first-post.mdx\n  content/landing/catholic-books-perth.yaml');
    expect(result.fix).toContain('remove the `sample: true` line');
  });
});

describe('the command', () => {
  const exec = promisify(execFile);
  const tsx = join(ROOT, 'node_modules/.bin/tsx');

  async function command(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await exec(tsx, ['tools/doctor/run.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  function envFile(env: Record<string, string>): string {
    const file = join(mkdtempSync(join(tmpdir(), 'doctor-env-')), '.env');
    writeFileSync(
      file,
      Object.entries(env)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .join('\n'),
    );
    return file;
  }

  it('reads --env-file over the shell’s variables, prints the checklist and exits 1 when a line failed, 0 when none did', async () => {
    const bad = await command(['--site', standIns.urls.site, '--env-file', envFile(misconfigure(standIns))], { STRIPE_WEBHOOK_SECRET: DOCTOR_KEYS.stripeWebhookSecret });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('✗ Turnstile secret: Cloudflare does not know TURNSTILE_SECRET_KEY (invalid-input-secret)');
    // The shell had STRIPE_WEBHOOK_SECRET; the file does not take it away, so that line passes.
    expect(bad.stdout).toContain('✓ Required variables');

    standIns.state = goodState();
    const good = await command(['--site', standIns.urls.site, '--env-file', envFile(goodEnv(standIns))], {});
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('✓ Stripe webhook');
    expect(good.stdout).toContain('0 failed');
  });

  it('without a site it says how to name one and exits 2', async () => {
    const result = await command([], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Which site? Pass --site https://your-shop.example, or set SITE_URL.');
  });
});
