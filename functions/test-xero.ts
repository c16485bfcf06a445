/**
 * LOCAL TEST XERO PAGE — the stand-in for Xero's screens while the shop runs locally: its consent screen (reached
 * from Connect to Xero, with the state and the redirect URI Xero would get) and the TEST organisation's books: every
 * invoice and credit note the shop posted, what was paid or refunded through the Stripe account, and the totals and
 * GST they add up to. Answers 404 anywhere but on the local server without a Xero app.
 */
import { readServerEnv } from '../src/config/env';
import { formatPrice } from '../src/lib/format';
import { escapeHtml } from '../src/lib/html';
import { fromCents, toCents } from '../src/lib/money';
import { handle, problem, type FunctionConfig } from './_lib/http';
import { LOCAL_TENANT, localXeroBooks } from './_lib/providers/local-xero';
import { selectAccounting } from './_lib/providers/select';
import { testPage } from './_lib/test-page';
import { xeroRedirectUri } from './_lib/xero-connection';

const CSS =
  'body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#1e293b;margin:0;padding:16px}main{max-width:1100px;margin:0 auto}h1{color:#1e3a5f}.test{background:#b91c1c;color:#fff;font-weight:800;letter-spacing:.05em;text-align:center;border-radius:8px;padding:10px;margin-bottom:20px}section{background:#fff;border-radius:12px;padding:16px;margin-bottom:12px;box-shadow:0 2px 8px #0001;overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e2e8f0;vertical-align:top}td.n,th.n{text-align:right;white-space:nowrap}dl{display:grid;grid-template-columns:fit-content(60%) 1fr;gap:4px 16px;margin:0}dt{font-weight:700}a.button{display:inline-block;padding:10px 16px;border-radius:999px;font-weight:700;background:#1e3a5f;color:#fff;text-decoration:none;margin-right:8px}:focus-visible{outline:3px solid #8a5d00;outline-offset:2px}';

const page = (body: string, status = 200) => testPage('TEST Xero', CSS, `<p class="test">TEST XERO — nothing here reaches real books</p>${body}`, status);

const sum = (values: number[]) => fromCents(values.reduce((a, v) => a + toCents(v), 0));

export default handle(async (request) => {
  const env = readServerEnv();
  if (selectAccounting(env)?.name !== 'local-test') return problem(404, 'The test Xero organisation is not available on this site.');
  const url = new URL(request.url);
  const state = url.searchParams.get('state');
  if (state) {
    // Only this shop's own callback: the stand-in's consent screen must not send anyone elsewhere.
    if (url.searchParams.get('redirect_uri') !== xeroRedirectUri(url.origin)) return problem(400, 'The redirect URI is not this shop’s /api/xero-callback.');
    const allow = new URL(xeroRedirectUri(url.origin));
    allow.searchParams.set('code', `local-code-${Date.now()}`);
    allow.searchParams.set('state', state);
    const cancel = new URL(xeroRedirectUri(url.origin));
    cancel.searchParams.set('error', 'access_denied');
    cancel.searchParams.set('state', state);
    return page(`<h1>Allow the shop to reach your books</h1><section>
<p>This page stands in for Xero’s consent screen. The shop asks to post invoices, credit notes, payments, bank transfers and spend money, and to read the chart of accounts, of:</p>
<p><strong>${escapeHtml(LOCAL_TENANT.tenantName)}</strong></p>
<p><a class="button" href="${escapeHtml(allow.href)}">Allow access</a><a class="button" href="${escapeHtml(cancel.href)}">Cancel</a></p></section>`);
  }

  const { documents, calls, balances, transfers, spends } = await localXeroBooks();
  const live = documents.filter((d) => !d.voided);
  const invoices = live.filter((d) => d.Type === 'ACCREC');
  const credits = live.filter((d) => d.Type === 'ACCRECCREDIT');
  const row = (d: (typeof documents)[number]) =>
    `<tr data-number="${escapeHtml(d.Number)}"><td>${d.Type === 'ACCREC' ? 'Invoice' : 'Credit note'}</td><td>${escapeHtml(d.Number)}</td><td>${escapeHtml(d.Reference)}</td><td>${escapeHtml(d.Contact)}</td><td>${escapeHtml(d.Date)}</td>
<td>${d.LineItems.map((l) => escapeHtml(`${l.Quantity} × ${l.Description} (${l.AccountCode}, ${l.TaxType})`)).join('<br>')}</td>
<td class="n">${formatPrice(d.Total)}</td><td class="n">${formatPrice(d.TotalTax)}</td><td class="n">${d.voided ? 'Voided' : formatPrice(d.paid)}</td></tr>`;
  const net = sum([...invoices.map((d) => d.Total), ...credits.map((d) => -d.Total)]);
  const gst = sum([...invoices.map((d) => d.TotalTax), ...credits.map((d) => -d.TotalTax)]);
  return page(`<h1>The TEST organisation’s books</h1>
<p>This page stands in for Xero while the shop runs locally: ${escapeHtml(LOCAL_TENANT.tenantName)}, and what the shop posted to it.</p>
<section aria-labelledby="totals"><h2 id="totals">Totals</h2><dl>
<dt>Invoices</dt><dd data-testid="xero-invoices">${invoices.length}</dd>
<dt>Credit notes</dt><dd data-testid="xero-credit-notes">${credits.length}</dd>
<dt>Invoiced less credited</dt><dd data-testid="xero-net">${formatPrice(net)}</dd>
<dt>GST</dt><dd data-testid="xero-gst">${formatPrice(gst)}</dd>
<dt>Stripe payouts</dt><dd data-testid="xero-payouts">${transfers.length}</dd>
<dt>Stripe fees</dt><dd>${formatPrice(sum(spends.map((m) => m.Total)))}</dd>
<dt>In the Stripe account now (not yet paid out)</dt><dd data-testid="xero-clearing">${formatPrice(balances.STRIPE ?? 0)}</dd>
<dt>Calls that posted</dt><dd>${calls}</dd></dl></section>
<section aria-labelledby="documents" tabindex="0"><h2 id="documents">Invoices and credit notes</h2>
${documents.length ? `<table><thead><tr><th>Type</th><th>Number</th><th>Reference</th><th>Contact</th><th>Date</th><th>Lines</th><th class="n">Total</th><th class="n">GST</th><th class="n">Paid or refunded</th></tr></thead><tbody>${documents.slice(-200).reverse().map(row).join('')}</tbody></table>` : '<p>Nothing has been posted here yet: connect and press Sync now in /admin → Accounts.</p>'}
</section>
${
  transfers.length
    ? `<section aria-labelledby="payouts" tabindex="0"><h2 id="payouts">Stripe payouts</h2><table><thead><tr><th>Date</th><th>Reference</th><th>From</th><th>To</th><th class="n">Amount</th><th class="n">Fees</th><th class="n">Left in Stripe after it</th></tr></thead><tbody>${transfers
        .slice(-100)
        .reverse()
        .map(
          (t) =>
            `<tr><td>${escapeHtml(t.Date)}</td><td>${escapeHtml(t.Reference)}</td><td>${escapeHtml(t.From)}</td><td>${escapeHtml(t.To)}</td><td class="n">${formatPrice(t.Amount)}</td><td class="n">${formatPrice(sum(spends.filter((m) => m.Reference.endsWith(t.Reference.replace('Stripe payout ', 'payout '))).map((m) => m.Total)))}</td><td class="n" data-testid="xero-left-after-payout">${formatPrice(t.left)}</td></tr>`,
        )
        .join('')}</tbody></table></section>`
    : ''
}`);
});

export const config: FunctionConfig = { path: '/api/test-xero', method: ['GET'] };
