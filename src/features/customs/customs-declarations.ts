/**
 * The customs declarations the packing slips print, from /api/admin-customs: loaded with the declaration's own
 * code only when an order goes abroad, so the slips of a domestic day download none of it.
 */
import { type CustomsAnswer, customsAnswerSchema, DECLARATIONS_PER_CALL } from '@/features/customs/declaration';
import { postAsStaff } from '@/features/admin/api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The customs declarations of the orders going abroad among these. */
export async function getCustomsDeclarations(orderIds: readonly string[]): Promise<CustomsAnswer | null> {
  const ids = orderIds.filter((id) => UUID.test(id));
  if (ids.length === 0) return null;
  const answers: CustomsAnswer[] = [];
  for (let i = 0; i < ids.length; i += DECLARATIONS_PER_CALL) {
    answers.push(customsAnswerSchema.parse(await postAsStaff('/api/admin-customs', { orderIds: ids.slice(i, i + DECLARATIONS_PER_CALL) })));
  }
  return { sender: answers[0]!.sender, declarations: answers.flatMap((answer) => answer.declarations) };
}
