/**
 * The build hook that publishing a review calls (NETLIFY_BUILD_HOOK_URL): without it the back office refuses to
 * publish, since the static pages would never show the review. Netlify's hooks are
 * https://api.netlify.com/build_hooks/<id>; the doctor checks that form and does not call it (a call starts a
 * deploy).
 */
import type { CheckResult, DoctorContext } from '../types';

const NAME = 'Build hook (reviews)';
const HOOK = /^https:\/\/api\.netlify\.com\/build_hooks\/[0-9a-f]{24}$/;
const FIX =
  'In Netlify: Site configuration > Build & deploy > Continuous deployment > Build hooks > Add build hook (branch: the production branch). Set its URL as NETLIFY_BUILD_HOOK_URL, scope Functions, then redeploy.';

export async function checkBuildHook({ env }: DoctorContext): Promise<CheckResult> {
  const hook = env.NETLIFY_BUILD_HOOK_URL?.trim();
  if (!hook) return { name: NAME, status: 'fail', detail: 'NETLIFY_BUILD_HOOK_URL is not set: reviews cannot be published, as the pages could not be rebuilt to show them', fix: FIX };
  if (!HOOK.test(hook)) {
    return {
      name: NAME,
      status: 'fail',
      detail: `NETLIFY_BUILD_HOOK_URL is not a Netlify build hook (https://api.netlify.com/build_hooks/<id>): publishing a review would not rebuild the site`,
      fix: FIX,
    };
  }
  return { name: NAME, status: 'pass', detail: 'a Netlify build hook: publishing a review rebuilds the site (not called here: a call starts a deploy)' };
}
