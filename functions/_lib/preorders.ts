/**
 * Pre-orders beyond payment: the publisher's actions from /admin (the allocation and first delivery, Release now,
 * Move the date) and the daily release. Each change runs in the database as the staff member (so it checks the
 * role and the history names who); then the server does what reaches outside: a release's orders, oldest paid
 * first, get their "being packed" email once each and go to the shipping platform as any paid order does, and its
 * waiting list is drawn into one availability mailing (the same for Release now and the release date); a moved
 * date is told to each buyer once; an allocation that opens a title draws its waiting list too, as a stock change does.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { formatLongDate } from '../../src/lib/format';
import { customsGapText, fieldsOfColumns } from '../../src/features/customs/customs-data';
import type { PreorderAction } from '../../src/features/staff-actions/preorder-actions';
import { preorderDateEmail, preorderReadyEmail } from './emails';
import { type FulfilmentServices, sendOrderEmailOnce, sendToShippingPlatform } from './fulfilment';
import { preorderTitles, purgeLiveCatalog } from './live-catalog';
import { type NewsletterSender, sendNewsletterBatches } from './newsletter';
import { drawAvailabilityMailing, type StockOutcome } from './stock';
import { outcomeAnswer, rpc } from './supabase-admin';

const releaseAnswer = outcomeAnswer('release_title', {
  released: { stock: z.number(), owed: z.number(), orders: z.array(z.uuid()) },
  too_few: { owed: z.number() },
  customs_missing: { abroad: z.number(), missing: z.array(z.string()) },
  not_preorder: {},
});

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why the database would not release a title, in the publisher's words (null: it was released). */
function notReleased(book: { id: string }, answer: z.infer<typeof releaseAnswer>): string | null {
  switch (answer.outcome) {
    case 'released':
      return null;
    case 'not_preorder':
      return 'it is not on pre-order: it was released already';
    case 'too_few':
      return `the first delivery is smaller than the ${plural(answer.owed, 'copy', 'copies')} pre-ordered`;
    case 'customs_missing':
      return customsGapText(book.id, answer.abroad, fieldsOfColumns(answer.missing));
  }
}

type Services = Pick<FulfilmentServices, 'email' | 'siteOrigin' | 'seller' | 'cdn' | 'shipping'>;

type Mailing = NonNullable<StockOutcome['mailing']>;

/**
 * What follows every release, Release now's and the release date's alike: each order it made to pack, oldest paid
 * first, is told once that it is being packed, then sent to the shipping platform by the path every paid order takes
 * (a failure there is recorded and retried, never thrown); and with copies left over in stock, whoever is still on
 * its waiting list (signed up once pre-orders were full) is drawn into one availability mailing, as when stock is
 * received. Answers how many buyers this call emailed, and the mailing drawn (null when nobody waits).
 */
async function afterRelease(
  db: SupabaseClient,
  services: Services,
  book: { id: string; title: string },
  released: { stock: number; orders: readonly string[] },
  actor: string,
): Promise<{ emailed: number; mailing: Mailing | null }> {
  await purgeLiveCatalog(services.cdn, `${book.id} was released`);
  let emailed = 0;
  for (const orderId of released.orders) {
    if (await sendOrderEmailOnce(db, services, orderId, 'preorder_ready', preorderReadyEmail)) emailed += 1;
    await sendToShippingPlatform(db, services, orderId);
  }
  const mailing = released.stock > 0 ? await drawMailing(db, services, book, actor) : null;
  return { emailed, mailing };
}

/** Tells each order waiting of the new date, once per date (a failed send is given back and sent by the next move). */
async function tellNewDate(db: SupabaseClient, services: Services, orderIds: readonly string[]): Promise<number> {
  let emailed = 0;
  for (const orderId of orderIds) if (await sendOrderEmailOnce(db, services, orderId, 'preorder_date', preorderDateEmail)) emailed += 1;
  return emailed;
}

async function titleOf(db: SupabaseClient, productId: string): Promise<{ id: string; title: string }> {
  const { data, error } = await db.from('products').select('id, title').eq('id', productId).single();
  if (error) throw error;
  return z.object({ id: z.string(), title: z.string() }).parse(data);
}

/** The database's refusal in the publisher's words: 400 with its message, 404 for no such title, 403 for no access. */
function refusal(error: { code?: string; message: string }): StockOutcome | null {
  if (error.code === 'P0002') return { status: 404, message: 'We could not find that title.' };
  if (error.code === '22023') return { status: 400, message: error.message };
  if (error.code === '42501') return { status: 403, message: "You don't have access to the back office." };
  return null;
}

/** The availability mailing for whoever waits for the book (null when nobody does, or it could not be drawn: logged). */
async function drawMailing(db: SupabaseClient, services: Services, book: { id: string; title: string; releaseDate?: string }, actor: string) {
  return drawAvailabilityMailing(db, services.siteOrigin, book, actor).catch((drawError: unknown) => {
    console.error(`[preorders] could not draw the availability mailing for ${book.id}`, drawError);
    return null;
  });
}

/** Runs a publisher's pre-order action: the change as the staff member (`asStaff`), the rest as the server (`db`). */
export async function runPreorderAction(asStaff: SupabaseClient, db: SupabaseClient, services: Services, action: PreorderAction, actor: string): Promise<StockOutcome> {
  const call =
    action.action === 'set'
      ? await asStaff.rpc('admin_set_preorder', { p_product_id: action.productId, p_allocation: action.allocation, p_first_delivery: action.firstDelivery })
      : action.action === 'release'
        ? await asStaff.rpc('release_title', { p_product_id: action.productId, p_first_delivery: action.firstDelivery })
        : await asStaff.rpc('admin_move_release_date', { p_product_id: action.productId, p_date: action.releaseDate });
  if (call.error) {
    const refused = refusal(call.error);
    if (refused) return refused;
    throw call.error;
  }
  const book = await titleOf(db, action.productId);
  switch (action.action) {
    case 'set': {
      const set = z.object({ allocation: z.number(), left: z.number() }).parse(call.data);
      await purgeLiveCatalog(services.cdn, `the pre-order allocation of ${book.id} changed`);
      const done = `${book.title}: ${plural(set.allocation, 'copy', 'copies')} for pre-order, ${set.left} left.`;
      if (set.left <= 0) return { status: 200, message: done };
      // Open for pre-order: whoever waits for the book hears once, as when it is back in stock.
      const [onPreorder] = await preorderTitles(db, [book.id]);
      const mailing = await drawMailing(db, services, { ...book, ...(onPreorder && { releaseDate: onPreorder.releaseDate }) }, actor);
      if (!mailing) return { status: 200, message: done };
      return { status: 200, message: `${done} Emailing ${plural(mailing.recipients, 'waiting shopper', 'waiting shoppers')}.`, mailing };
    }
    case 'release': {
      const released = releaseAnswer.parse(call.data);
      if (released.outcome === 'not_preorder') return { status: 409, message: `${book.title} is not on pre-order: it was released already.` };
      if (released.outcome === 'too_few') {
        return {
          status: 400,
          message: `The first delivery is smaller than the ${plural(released.owed, 'copy', 'copies')} pre-ordered. Enter a delivery of at least ${released.owed}: every pre-order must be filled.`,
        };
      }
      if (released.outcome === 'customs_missing') {
        return { status: 409, message: `${book.title} is not released, and nothing has changed. ${notReleased(book, released)} Then press Release now again.` };
      }
      const { emailed, mailing } = await afterRelease(db, services, book, released, actor);
      const done = `${book.title} is released: ${released.stock} in stock, ${plural(released.orders.length, 'order', 'orders')} to pack (${plural(emailed, 'buyer', 'buyers')} emailed).`;
      // The back office sends the mailing a batch at a time, as it sends a newsletter.
      if (!mailing) return { status: 200, message: done, stock: released.stock };
      return { status: 200, message: `${done} Emailing ${plural(mailing.recipients, 'waiting shopper', 'waiting shoppers')}.`, stock: released.stock, mailing };
    }
    case 'move_date': {
      const moved = z.object({ release_date: z.string(), orders: z.array(z.uuid()) }).parse(call.data);
      await purgeLiveCatalog(services.cdn, `the release date of ${book.id} moved`);
      const emailed = await tellNewDate(db, services, moved.orders);
      return { status: 200, message: `${book.title} now comes out on ${formatLongDate(moved.release_date)}; ${plural(emailed, 'buyer', 'buyers')} emailed.` };
    }
  }
}

/** Each title the daily release tried, with the answer release_title_as gave it. */
const dueAnswer = z.array(z.looseObject({ product_id: z.string(), title: z.string() }));

/** Who the stock history and the mailing name for the daily release (release_due_titles names the same). */
const RELEASE_DATE = 'Release date';
/** How long the daily release sends one title's availability mailing before it leaves the rest to Resume sending. */
const MAILING_BUDGET_MS = 10_000;

/**
 * The daily release's availability mailing, sent by the server (no back office is open to send it): the batches
 * the back office's Send would send, for up to MAILING_BUDGET_MS. What is left (the time, a failure, or no sender
 * configured) is finished from Newsletter with Resume sending, and nobody gets it twice.
 */
async function sendMailing(sender: NewsletterSender | null, mailing: Mailing): Promise<string> {
  const waiting = plural(mailing.recipients, 'waiting shopper', 'waiting shoppers');
  const finish = 'finish it from Newsletter with Resume sending';
  if (!sender) return `${waiting} to email: ${finish}`;
  try {
    const progress = await sendNewsletterBatches(sender, mailing.id, Date.now() + MAILING_BUDGET_MS);
    if (progress?.state === 'done') return `${waiting} emailed`;
    return `${waiting} being emailed, ${progress?.waiting ?? mailing.recipients} still to go: ${finish}`;
  } catch (cause) {
    console.error(`[preorders] sending the availability mailing ${mailing.id} stopped`, cause);
    return `${waiting} being emailed, stopped (${cause instanceof Error ? cause.message : String(cause)}): ${finish}`;
  }
}

/**
 * The daily release: every title whose day has come and whose first delivery was entered; then its orders and its
 * waiting list, as Release now (afterRelease), the mailing sent here. A title refused stays on pre-order, and the
 * report says why (it is tried again the next day). `sender` is null when the deploy cannot send marketing email.
 */
export async function releaseDueTitles(db: SupabaseClient, services: Services, sender: NewsletterSender | null): Promise<string[]> {
  const report: string[] = [];
  for (const title of await rpc(db, 'release_due_titles', {}, dueAnswer)) {
    const answer = releaseAnswer.parse(title);
    if (answer.outcome !== 'released') {
      report.push(`${title.title}: not released (${notReleased({ id: title.product_id }, answer)})`);
      continue;
    }
    const { emailed, mailing } = await afterRelease(db, services, { id: title.product_id, title: title.title }, answer, RELEASE_DATE);
    const done = `${title.title}: released, ${plural(answer.orders.length, 'order', 'orders')} to pack, ${plural(emailed, 'buyer', 'buyers')} emailed`;
    report.push(mailing ? `${done}, ${await sendMailing(sender, mailing)}` : done);
  }
  return report;
}
