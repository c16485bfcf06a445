/** Payment provider events already handled, so a redelivered webhook does nothing twice. */
import type { SupabaseClient } from '@supabase/supabase-js';

export async function isEventHandled(db: SupabaseClient, eventId: string): Promise<boolean> {
  const { data, error } = await db.from('payment_events').select('id').eq('id', eventId).maybeSingle();
  if (error) throw error;
  return data !== null;
}

/** Recorded after handling, so a failure while handling is retried by the provider's redelivery. */
export async function recordEventHandled(db: SupabaseClient, event: { id: string; type: string }): Promise<void> {
  const { error } = await db.from('payment_events').insert({ id: event.id, type: event.type });
  if (error && error.code !== '23505') throw error;
}
