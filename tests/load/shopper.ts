/**
 * One simulated shopper: browses a few pages, reads the catalog with the anon key, asks for shipping
 * rates, starts a checkout, pays on the local test-payment page (or sometimes cancels, or pays twice as a
 * double click would) and confirms. Everything the shop tells the shopper goes into the ledger, which the
 * consistency check later holds the database to.
 */
import { LOCAL_ANON_KEY } from '../../local/backend/keys';
import { BOOK_ID, CODES, fulfilledAt, LIMITED_ID } from './fixtures';
import { LoopbackClient, NetworkError, type Phase, type Recorder } from './http';

export interface CartLine {
  id: string;
  quantity: number;
}

export interface Told {
  orderId: string;
  sessionId: string;
  items: CartLine[];
  /** The promotion code the shopper applied, if any. */
  code: string | null;
  /** When the shop answered "order created". */
  phase: Phase;
  /** What the shop last said about the payment. */
  outcome: 'created' | 'paid' | 'refund_due' | 'cancelled' | 'pay-unanswered';
}

export class Ledger {
  readonly orders = new Map<string, Told>();
  /** Orders paid twice on purpose: fulfilled_at before and after the second payment. */
  readonly doublePays: Array<{ orderId: string; first: string | null; second: string | null }> = [];
  readonly outcomes = new Map<string, number>();
  /** Checkouts refused for their code, and why. */
  readonly codeRefusals: Array<{ code: string; status: string }> = [];

  count(outcome: string): void {
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
  }
}

export interface ShopperContext {
  port: () => number;
  recorder: Recorder;
  ledger: Ledger;
  deadline: number;
  /** True while the server is down for the fault; shoppers wait instead of hammering a closed port. */
  restarting: () => boolean;
  random: () => number;
}

const PAGES = ['/', '/store', '/book'];
const ANON = { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}` };
const JSON_HEADERS = { 'content-type': 'application/json' };
const ADDRESS = { fullName: 'Load Test Shopper', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The flow stops here (an answer a real shopper could not continue from). */
class Stop extends Error {}

function parseJson<T>(body: string): T {
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new Stop('not JSON');
  }
}

type Created = Told & { paymentUrl: URL };

/** Asks for delivery options; the first quote's id, or null when the cart is out of stock (409). */
async function quote(client: LoopbackClient, cart: CartLine[]): Promise<string | null> {
  // The checkout page's look-up session, bound to the visitor cookie that comes with it.
  const session = await client.request('POST /api/lookup-session', 'POST', '/api/lookup-session', { headers: JSON_HEADERS, body: '{}' });
  if (session.status !== 200) throw new Stop(`lookup session ${session.status}`);
  const cookie = String(session.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
  const rates = await client.request('POST /api/courier-rates', 'POST', '/api/courier-rates', {
    headers: { ...JSON_HEADERS, cookie },
    body: JSON.stringify({
      deliveryPostcode: ADDRESS.postalCode,
      deliverySuburb: ADDRESS.city,
      deliveryState: ADDRESS.state,
      deliveryCountry: 'AU',
      cart,
      lookupSession: parseJson<{ session: string }>(session.body).session,
    }),
  });
  if (rates.status === 409) return null;
  if (rates.status !== 200) throw new Stop(`rates ${rates.status}`);
  const methodId = parseJson<{ quotes: Array<{ id: string }> }>(rates.body).quotes[0]?.id;
  if (!methodId) throw new Stop('no shipping quote');
  return methodId;
}

/** Creates the order and payment session; null when refused as out of stock (409), 'code refused' when refused for its code (409). */
async function startCheckout(ctx: ShopperContext, client: LoopbackClient, cart: CartLine[], methodId: string, email: string, code: string | null = null): Promise<Created | null | 'code refused'> {
  const checkout = await client.request('POST /api/create-checkout', 'POST', '/api/create-checkout', {
    headers: JSON_HEADERS,
    body: JSON.stringify({ cartItems: cart, shippingDetails: { ...ADDRESS, shippingMethod: { id: methodId } }, customerEmail: email, ...(code && { promotionCode: code }) }),
  });
  if (checkout.status === 409) {
    // A code whose uses were all taken by other orders first: the shopper is told, nothing is written.
    const refusal = parseJson<{ promotionCode?: { status: string } }>(checkout.body).promotionCode;
    if (!refusal) return null;
    ctx.ledger.codeRefusals.push({ code: code ?? '', status: refusal.status });
    return 'code refused';
  }
  if (checkout.status !== 200) throw new Stop(`checkout ${checkout.status}`);
  const created = parseJson<{ url: string; sessionId: string; orderId: string }>(checkout.body);
  const told: Created = { orderId: created.orderId, sessionId: created.sessionId, items: cart, code, phase: ctx.recorder.phase, outcome: 'created', paymentUrl: new URL(created.url) };
  ctx.ledger.orders.set(told.orderId, told);
  return told;
}

/** Presses Pay or Cancel on the test payment page: its form's fields, posted back, no redirect followed. */
async function pressButton(client: LoopbackClient, order: Created, action: 'pay' | 'cancel'): Promise<void> {
  const field = (name: string) => order.paymentUrl.searchParams.get(name) ?? '';
  const body = new URLSearchParams({ session: field('session'), success: field('success'), cancel: field('cancel'), action }).toString();
  if (order.outcome === 'created') order.outcome = 'pay-unanswered';
  const reply = await client.request('POST /api/test-payment', 'POST', order.paymentUrl.pathname, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  if (reply.status !== 303) throw new Stop(`payment ${reply.status}`);
}

/** What the order confirmation page shows: verify-payment's answer, written into the ledger. */
async function confirm(_ctx: ShopperContext, client: LoopbackClient, order: Created): Promise<string> {
  const verified = await client.request('POST /api/verify-payment', 'POST', '/api/verify-payment', { headers: JSON_HEADERS, body: JSON.stringify({ sessionId: order.sessionId }) });
  if (verified.status !== 200) throw new Stop(`verify ${verified.status}`);
  const status = parseJson<{ paymentStatus: string }>(verified.body).paymentStatus;
  order.outcome = status === 'paid' ? 'paid' : status === 'refund_due' ? 'refund_due' : 'created';
  return status;
}

const OUTCOME_LABEL: Record<string, string> = { paid: 'paid and confirmed', refund_due: 'paid, then told a refund is due (sold out at fulfilment)' };

async function visit(ctx: ShopperContext, client: LoopbackClient, visitNumber: number): Promise<void> {
  const { ledger, random } = ctx;
  for (const page of PAGES) {
    const reply = await client.request(`GET ${page}`, 'GET', page);
    if (reply.status !== 200) throw new Stop(`GET ${page} ${reply.status}`);
  }
  const catalog = await client.request('GET /rest/v1/products', 'GET', '/rest/v1/products?select=id,title,price,stock', { headers: ANON });
  if (catalog.status !== 200) throw new Stop('catalog');

  // One shopper in five buys for a class or a parish: 8 to 30 copies, across the book's quantity prices.
  const classSet = random() < 0.2;
  const cart: CartLine[] = [{ id: BOOK_ID, quantity: classSet ? 8 + Math.floor(random() * 23) : 1 + Math.floor(random() * 2) }];
  // Some apply a code: most the 10% one, a few the one with only a handful of uses.
  const codeRoll = random();
  const code = codeRoll < 0.25 ? CODES.tenOff.code : codeRoll < 0.35 ? CODES.fewUses.code : null;
  // Some shoppers also want the limited edition; half of those add it after the delivery quote came
  // back, so create-checkout (not only the quote) has to refuse it once it is sold out.
  const limited = random() < 0.35;
  const lateAdd = limited && random() < 0.5;
  if (limited && !lateAdd) cart.push({ id: LIMITED_ID, quantity: 1 + Math.floor(random() * 2) });
  const methodId = await quote(client, cart);
  if (lateAdd) cart.push({ id: LIMITED_ID, quantity: 1 + Math.floor(random() * 2) });
  if (!methodId) return ledger.count('out of stock at shipping rates (409)');

  const order = await startCheckout(ctx, client, cart, methodId, `shopper-${visitNumber}@example.com`, code);
  if (order === 'code refused') return ledger.count(`code ${code} refused at checkout (409)`);
  if (!order) return ledger.count('out of stock at checkout (409)');

  if (random() < 0.1) {
    await pressButton(client, order, 'cancel');
    order.outcome = 'cancelled';
    return ledger.count('cancelled on the payment page');
  }
  await pressButton(client, order, 'pay');
  const status = await confirm(ctx, client, order);
  ledger.count(OUTCOME_LABEL[status] ?? `verify said ${status}`);

  // Now and then Pay is pressed again (a double click, a reload) and the confirmation page reloaded: nothing may change.
  if (status === 'paid' && random() < 0.1) {
    const first = await fulfilledAt(ctx.port(), order.orderId);
    await pressButton(client, order, 'pay');
    await confirm(ctx, client, order);
    ledger.doublePays.push({ orderId: order.orderId, first, second: await fulfilledAt(ctx.port(), order.orderId) });
  }
}

/**
 * The last copies, wanted by several buyers at once: each starts a checkout while there is still stock
 * for them alone, then all pay together. Fulfilment must hand out only what exists; the rest are paid
 * orders the shop has to refund, and their buyers must be told so.
 */
export async function lastCopiesRace(ctx: ShopperContext, buyers: number, quantity: number): Promise<void> {
  const clients = Array.from({ length: buyers }, () => new LoopbackClient(ctx.port(), ctx.recorder));
  const cart = (): CartLine[] => [{ id: LIMITED_ID, quantity }];
  try {
    const orders = await Promise.all(
      clients.map(async (client, i) => {
        const methodId = await quote(client, cart());
        const order = methodId ? await startCheckout(ctx, client, cart(), methodId, `last-copies-${i}@example.com`) : null;
        return order === 'code refused' ? null : order;
      }),
    );
    await Promise.all(
      orders.map(async (order, i) => {
        if (!order) return ctx.ledger.count('last copies: refused before payment');
        await pressButton(clients[i]!, order, 'pay');
        const status = await confirm(ctx, clients[i]!, order);
        ctx.ledger.count(`last copies: ${OUTCOME_LABEL[status] ?? `verify said ${status}`}`);
      }),
    );
  } finally {
    clients.forEach((client) => client.close());
  }
}

/** Visits the shop over and over, each time as a new visitor, until the deadline. */
export async function runShopper(ctx: ShopperContext, firstVisit: number, step: number): Promise<void> {
  for (let n = firstVisit; Date.now() < ctx.deadline; n += step) {
    while (ctx.restarting() && Date.now() < ctx.deadline) await sleep(50);
    const client = new LoopbackClient(ctx.port(), ctx.recorder);
    try {
      await visit(ctx, client, n);
    } catch (error) {
      if (error instanceof NetworkError) {
        ctx.ledger.count(`stopped by a network error (${error.code})`);
        await sleep(100);
      } else if (error instanceof Stop) {
        ctx.ledger.count(`stopped: ${error.message}`);
      } else {
        throw error;
      }
    } finally {
      client.close();
    }
  }
}
