/**
 * Supabase Auth's public settings: GET {project}/auth/v1/settings with the anon key in `apikey` answers
 * { external: { google, email, … }, disable_signup, mailer_autoconfirm, … }.
 * Shoppers sign in with Google. Staff access is granted to an email address (`npm run staff -- add`), so
 * nobody may be able to hold an account under an address they have not proved is theirs: either email
 * sign-up is off, or it sends a confirmation first. Anonymous sign-ins must be off too (`external.anonymous_users`):
 * an anonymous user can set any address with updateUser({ email }), confirmed at once where "Confirm email" is off.
 * The database refuses anonymous users staff access either way; the doctor keeps the door shut at Auth as well.
 */
import { z } from 'zod';
import type { CheckResult, DoctorContext } from '../types';
import { errorMessage, isCheckResult, reach, skip } from './common';

const NAME = 'Supabase Auth';

const settingsSchema = z.object({
  external: z.record(z.string(), z.boolean()),
  disable_signup: z.boolean().optional().default(false),
  mailer_autoconfirm: z.boolean().optional().default(false),
});

const WHY = 'Staff access is granted by email address, so an unconfirmed sign-up with the publisher’s address would open the back office to whoever made it.';

export async function checkSupabaseAuth(context: DoctorContext): Promise<CheckResult> {
  const { env } = context;
  const projectUrl = env.PUBLIC_SUPABASE_URL ?? env.SUPABASE_URL;
  const anonKey = env.PUBLIC_SUPABASE_ANON_KEY;
  if (!projectUrl || !anonKey) return skip(NAME, 'needs PUBLIC_SUPABASE_URL (or SUPABASE_URL) and PUBLIC_SUPABASE_ANON_KEY (see Required variables)');

  let settingsUrl: string;
  try {
    settingsUrl = new URL('auth/v1/settings', `${projectUrl.replace(/\/$/, '')}/`).href;
  } catch {
    return skip(NAME, `${projectUrl} is not a URL (see Required variables)`);
  }

  const answer = await reach(context, { name: NAME, what: settingsUrl }, settingsUrl, { headers: { apikey: anonKey, accept: 'application/json' } });
  if (isCheckResult(answer)) return answer;
  if (answer.status === 401 || answer.status === 403) {
    return {
      name: NAME,
      status: 'fail',
      detail: `the project refused the anon key (${answer.status}${errorMessage(answer.body) ? `: ${errorMessage(answer.body)}` : ''})`,
      fix: 'Copy the anon (public) key of this project from Supabase → Project Settings → API into PUBLIC_SUPABASE_ANON_KEY (scope Builds), then redeploy.',
    };
  }
  const parsed = settingsSchema.safeParse(answer.body);
  if (!answer.ok || !parsed.success) {
    return {
      name: NAME,
      status: 'fail',
      detail: `${settingsUrl} answered ${answer.status} without Auth settings`,
      fix: 'Check that PUBLIC_SUPABASE_URL is the project URL (https://<project>.supabase.co) from Supabase → Project Settings → API.',
    };
  }

  const settings = parsed.data;
  const google = settings.external.google === true;
  const emailSignUp = settings.external.email === true && !settings.disable_signup;
  const problems: string[] = [];
  const fixes: string[] = [];

  if (!google) {
    problems.push('Google sign-in is off');
    fixes.push(
      `Supabase → Authentication → Sign In / Providers → Google: enable it with the OAuth client from Google Cloud, and add ${new URL('/auth/callback', context.site).href} to Authentication → URL Configuration → Redirect URLs.`,
    );
  }
  if (settings.external.anonymous_users === true) {
    problems.push('anonymous sign-ins are on');
    fixes.push('Supabase → Authentication → Sign In / Providers: turn "Allow anonymous sign-ins" off (the shop never uses them).', WHY);
  }
  if (emailSignUp && settings.mailer_autoconfirm) {
    problems.push('email sign-up is on and accounts are confirmed without any email (mailer_autoconfirm)');
    fixes.push('Supabase → Authentication → Sign In / Providers → Email: turn the Email provider off (the shop signs in with Google only), or at least turn "Confirm email" on.', WHY);
  }
  if (problems.length) return { name: NAME, status: 'fail', detail: problems.join('; '), fix: fixes.join('\n') };

  if (settings.disable_signup) {
    return {
      name: NAME,
      status: 'warn',
      detail: 'Google sign-in is on, but "Allow new users to sign up" is off: no unproven account can appear, and no new shopper can create one either, not even with Google',
      fix: 'Supabase → Authentication → Sign In / Providers: turn "Allow new users to sign up" on and the Email provider off, so Google sign-up works and email sign-up does not.',
    };
  }
  const how = !emailSignUp ? 'email sign-up is off' : 'email sign-up asks for confirmation first';
  return { name: NAME, status: 'pass', detail: `Google sign-in is on; ${how}` };
}
