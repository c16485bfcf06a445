/** What every check of `npm run doctor` receives and returns. */
import type { HttpAnswer, HttpRequest } from './http';

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

/** One line of the checklist: what was checked, what was found, and for a failure or warning what to do. */
export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** What was found; may span lines. */
  detail: string;
  /** The concrete step that fixes a failure or warning; may span lines. */
  fix?: string;
}

/** Where each provider's API is reached. Tests and rehearsals point these at local servers. */
export interface ProviderEndpoints {
  stripe: string;
  resend: string;
  turnstile: string;
  auspost: string;
  places: string;
  starshipit: string;
}

export interface DoctorContext {
  /** The deploy's environment: empty values count as unset. */
  env: Readonly<Record<string, string | undefined>>;
  /** The deployed site's origin, e.g. https://shop.example */
  site: URL;
  /** Netlify's deploy context (CONTEXT): production, deploy-preview, branch-deploy; undefined when not given. */
  deployContext: string | undefined;
  production: boolean;
  endpoints: ProviderEndpoints;
  /** One HTTP request with the doctor's timeout. */
  request: HttpRequest;
  /** The project folder: netlify.toml and content/ are read from here. */
  rootDir: string;
}

export type Check = (context: DoctorContext) => Promise<CheckResult | CheckResult[]>;

export type { HttpAnswer };
