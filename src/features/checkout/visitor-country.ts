/**
 * The country the checkout starts on: where the shop sees the visitor (Netlify's geolocation, through
 * /api/visitor-region), when it is one the shop ships to. Anything else, a failure included, leaves the
 * checkout's default.
 */
import { ALLOWED_COUNTRIES, type CountryCode } from '@/config/constants';
import { VISITOR_REGION_PATH, type VisitorRegion } from '@/features/analytics/consent';

export async function visitorCountry(fetchFn: typeof fetch = fetch): Promise<CountryCode | null> {
  try {
    const response = await fetchFn(VISITOR_REGION_PATH, { headers: { accept: 'application/json' } });
    if (!response.ok) return null;
    const { country } = (await response.json()) as Partial<VisitorRegion>;
    return ALLOWED_COUNTRIES.find((code) => code === country) ?? null;
  } catch {
    return null;
  }
}
