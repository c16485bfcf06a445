import { describe, expect, it } from 'vitest';
import { startAnalytics, type AnalyticsWindow } from '@/features/analytics/analytics';
import { analyticsPageLocation, withoutOneTimeValues } from '@/features/analytics/one-time-values';

describe('one-time values never reach analytics', () => {
  it.each([
    ['?session_id=cs_test_a1b2', ''],
    ['?code=9f8e7d&state=xyz', ''],
    ['?utm_source=news&session_id=cs_1&utm_medium=email', '?utm_source=news&utm_medium=email'],
    ['?token=abc&token_hash=def&access_token=x&refresh_token=y&SESSION_ID=z', ''],
    ['?reset_token=abc&apiKey=k&client_secret=s&page=2', '?page=2'],
    ['?utm_campaign=easter', '?utm_campaign=easter'],
    ['', ''],
  ])('%s → %s', (search, expected) => {
    expect(withoutOneTimeValues(search)).toBe(expected);
  });

  it('the page location keeps origin, path and harmless query, and drops the fragment', () => {
    expect(analyticsPageLocation({ origin: 'https://shop.example', pathname: '/order-confirmation', search: '?session_id=cs_live_123&utm_source=x' })).toBe(
      'https://shop.example/order-confirmation?utm_source=x',
    );
  });

  it('the order confirmation and sign-in callback pages send neither the payment session nor the sign-in code', () => {
    for (const [path, search] of [
      ['/order-confirmation', '?session_id=cs_test_secret'],
      ['/auth/callback', '?code=one-time-code&state=s'],
      ['/checkout', '?session_id=cs_test_secret'],
    ] as const) {
      const calls: unknown[][] = [];
      const win = {
        location: { origin: 'https://shop.example', pathname: path, search },
        document: {
          title: 't',
          referrer: '',
          readyState: 'loading',
          querySelector: () => null,
          addEventListener: () => {},
          createElement: () => ({ src: '', async: false }),
          head: { appendChild: () => {} },
        },
        addEventListener: () => {},
        setTimeout: () => {},
        gtag: (...args: unknown[]) => void calls.push(args),
      } satisfies AnalyticsWindow;
      // A visitor who already agreed: the tag loads at once.
      startAnalytics({ win, measurementId: 'G-TEST123', consent: { store: { read: () => 'granted', write: () => {} }, isConsentRequired: async () => false } });
      const sent = JSON.stringify(calls);
      expect(sent, path).not.toContain('cs_test_secret');
      expect(sent, path).not.toContain('one-time-code');
      expect(calls.find((c) => c[0] === 'config')?.[2]).toMatchObject({ page_location: `https://shop.example${path}` });
    }
  });
});
