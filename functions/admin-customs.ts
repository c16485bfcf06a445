/**
 * The customs declarations of the orders the packing slips print (staff only): for each order going abroad, its
 * customs lines (functions/_lib/customs.ts), and the sender as the tax invoice names the shop, with its postal
 * address. A domestic order gets none; an order whose books lack customs data gets what to fix instead.
 */
import { z } from 'zod';
import { DECLARATIONS_PER_CALL, needsDeclaration, type CustomsAnswer } from '../src/features/customs/declaration';
import { staffEndpoint } from './_lib/back-office';
import { CustomsDataError, orderCustomsLines } from './_lib/customs';
import { json, problem, type FunctionConfig } from './_lib/http';
import { postalAddress } from './_lib/mail-links';
import { ConfigurationError } from './_lib/runtime';
import { serviceClient } from './_lib/supabase-admin';
import { sellerIdentity } from './_lib/tax-invoice';

const body = z.object({
  orderIds: z
    .array(z.string().uuid('orderIds: order ids as the back office lists them'))
    .min(1, 'orderIds: at least one order')
    .max(DECLARATIONS_PER_CALL, `orderIds: at most ${DECLARATIONS_PER_CALL} orders at once`),
});

export default staffEndpoint(body, async ({ env, body: { orderIds } }) => {
  const seller = sellerIdentity(env);
  let address: string;
  try {
    address = postalAddress(env);
  } catch (error) {
    if (error instanceof ConfigurationError) return problem(503, 'The shop’s postal address (SHOP_POSTAL_ADDRESS) is not set, so no customs declaration can name the sender.');
    throw error;
  }
  if (!seller) return problem(503, 'The shop’s legal name (SHOP_LEGAL_NAME and SHOP_ABN) is not set, so no customs declaration can name the sender.');

  const db = serviceClient(env);
  const ids = [...new Set(orderIds.map((id) => id.toLowerCase()))];
  const { data, error } = await db.from('orders').select('id, shipping_address').in('id', ids);
  if (error) throw new Error(`Could not read the orders for their customs declarations: ${error.message}`);
  const abroad = (data ?? []).filter((order) => needsDeclaration((order.shipping_address as { country?: string } | null)?.country)).map((order) => order.id as string);

  const declarations: CustomsAnswer['declarations'] = [];
  for (const orderId of abroad) {
    try {
      declarations.push({ orderId, lines: await orderCustomsLines(db, orderId) });
    } catch (failure) {
      if (!(failure instanceof CustomsDataError)) throw failure;
      declarations.push({ orderId, problem: failure.message });
    }
  }
  const answer: CustomsAnswer = { sender: { name: seller.legalName, address, abn: seller.abn }, declarations };
  return json(answer);
});

export const config: FunctionConfig = { path: '/api/admin-customs', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
