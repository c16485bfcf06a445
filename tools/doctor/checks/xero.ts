/**
 * Xero: the connection the back office made (the sealed refresh token in the database, renewed here as each sync
 * renews it), and each account code and tax type the settings name, against the connected organisation.
 */
import type { AccountingAccount } from '../../../functions/_lib/providers/accounting';
import { XERO_DEFAULTS, type XeroSettings, xeroSettings } from '../../../functions/_lib/xero-books';
import { readServerEnv } from '../../../src/config/env';
import type { CheckResult, DoctorContext } from '../types';
import { listOf, skip } from './common';

const NAME = 'Xero';

/** What the organisation lacks of the settings: account codes (the clearing one a bank account) and tax types. */
export function settingsProblems(settings: XeroSettings, accounts: AccountingAccount[], taxTypes: string[]): string[] {
  const active = accounts.filter((a) => a.status === 'ACTIVE');
  const problems: string[] = [];
  for (const [variable, code] of [
    ['XERO_SALES_ACCOUNT', settings.salesAccount],
    ['XERO_SHIPPING_ACCOUNT', settings.shippingAccount],
    ['XERO_FEES_ACCOUNT', settings.feesAccount],
  ] as const) {
    if (!active.some((a) => a.code === code && a.type !== 'BANK')) problems.push(`no active account with the code ${code} (${variable})`);
  }
  if (!active.some((a) => a.code === settings.clearingAccount && a.type === 'BANK')) {
    problems.push(`no bank account with the code ${settings.clearingAccount} for the Stripe balance (XERO_CLEARING_ACCOUNT)`);
  }
  if (!active.some((a) => a.code === settings.bankAccount && a.type === 'BANK')) {
    problems.push(`no bank account with the code ${settings.bankAccount} for Stripe's payouts (XERO_BANK_ACCOUNT)`);
  }
  for (const [variable, type] of [
    ['XERO_TAX_TYPE', settings.taxType],
    ['XERO_EXPORT_TAX_TYPE', settings.exportTaxType],
    ['XERO_FEES_TAX_TYPE', settings.feesTaxType],
  ] as const) {
    if (!taxTypes.includes(type)) problems.push(`no tax type ${type} (${variable})`);
  }
  return problems;
}

export async function checkXero(context: DoctorContext): Promise<CheckResult> {
  const env = readServerEnv(context.env);
  if (!env.XERO_CLIENT_ID || !env.XERO_CLIENT_SECRET) return skip(NAME, 'needs XERO_CLIENT_ID and XERO_CLIENT_SECRET (see docs/deploy.md, Xero)');
  if (!env.XERO_TOKEN_KEY) {
    return {
      name: NAME,
      status: 'fail',
      detail: 'XERO_TOKEN_KEY is not set: the connection to Xero cannot be kept',
      fix: 'Set XERO_TOKEN_KEY to the output of openssl rand -base64 32 (scope Functions), redeploy, then press Connect to Xero in /admin → Accounts.',
    };
  }
  // Loaded only when Xero is set up: the database client and the adapter cost every other run of the doctor its start.
  const [{ createXero }, { serviceClient }, { openConnection }] = await Promise.all([
    import('../../../functions/_lib/providers/xero'),
    import('../../../functions/_lib/supabase-admin'),
    import('../../../functions/_lib/xero-connection'),
  ]);
  const xero = createXero({ clientId: env.XERO_CLIENT_ID, clientSecret: env.XERO_CLIENT_SECRET, baseUrl: env.XERO_API_BASE_URL, identityUrl: env.XERO_IDENTITY_URL });
  try {
    const connection = await openConnection(serviceClient(env), env, xero);
    if (!connection) {
      return {
        name: NAME,
        status: 'warn',
        detail: 'the app is set up, but no organisation is connected: nothing is posted yet',
        fix: 'In /admin → Accounts, press Connect to Xero and choose the organisation.',
      };
    }
    if ('lapsed' in connection) {
      return { name: NAME, status: 'fail', detail: `the connection needs renewing: ${connection.lapsed}`, fix: 'In /admin → Accounts, press Connect to Xero again.' };
    }
    const session = xero.session(connection.accessToken, connection.tenantId);
    const settings = xeroSettings(env);
    const problems = settingsProblems(settings, await session.accounts(), await session.taxTypes());
    if (problems.length > 0) {
      return {
        name: NAME,
        status: 'fail',
        detail: `connected to ${connection.tenantName}, which has ${listOf(problems)}: those documents would be refused`,
        fix: `In Xero: Accounting → Chart of accounts (add a bank account coded ${settings.clearingAccount === XERO_DEFAULTS.clearingAccount ? 'STRIPE' : settings.clearingAccount} for Stripe), or set the variables named to codes the organisation has, then redeploy.`,
      };
    }
    return { name: NAME, status: 'pass', detail: `connected to ${connection.tenantName}; its chart of accounts has every code and tax type the settings name` };
  } catch (error) {
    return {
      name: NAME,
      status: 'fail',
      detail: `Xero could not be asked: ${error instanceof Error ? error.message : String(error)}`,
      fix: 'Run the doctor again; if it persists, check status.xero.com and the connection in /admin → Accounts.',
    };
  }
}
