/**
 * `npm run doctor -- --site https://your-shop.example [--env-file .env.production] [--context production]`
 * Prints the pre-flight checklist and exits 1 when a check failed (2 for a usage mistake).
 * The environment checked is this process's, with the --env-file's values on top.
 */
import { readFileSync } from 'node:fs';
import { parseEnv, parseArgs } from 'node:util';
import { runDoctor, UsageError } from './doctor';

const USAGE = `Usage: npm run doctor -- --site https://your-shop.example [--env-file .env] [--context production]

  --site       the deployed site (default: SITE_URL)
  --env-file   a file of NAME=value lines: the deploy's variables, on top of this shell's
  --context    Netlify's deploy context the variables are for (default: CONTEXT); production holds Stripe to live keys

Each provider can be pointed elsewhere with DOCTOR_STRIPE_API_URL, DOCTOR_RESEND_API_URL, DOCTOR_TURNSTILE_API_URL,
DOCTOR_AUSPOST_API_URL and DOCTOR_GOOGLE_PLACES_API_URL; DOCTOR_TIMEOUT_MS sets the time each request may take (10000).`;

export async function main(argv: string[], processEnv: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: { site?: string; 'env-file'?: string; context?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { site: { type: 'string' }, 'env-file': { type: 'string' }, context: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }

  const env: Record<string, string | undefined> = { ...processEnv };
  if (values['env-file']) {
    try {
      Object.assign(env, parseEnv(readFileSync(values['env-file'], 'utf8')));
    } catch (error) {
      console.error(`Cannot read --env-file ${values['env-file']}: ${error instanceof Error ? error.message : String(error)}`);
      return 2;
    }
  }

  try {
    const report = await runDoctor({ env, site: values.site, deployContext: values.context });
    console.log(report.text);
    return report.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
