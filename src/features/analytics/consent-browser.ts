/**
 * The browser side of consent: the stored choice, the country look-up (once a visit) and the banner.
 * Storage may be unavailable (private mode, blocked cookies): then nothing is remembered and we ask again.
 */
import { STORAGE_KEYS } from '@/config/constants';
import { CONSENT_CHOICES, VISITOR_REGION_PATH, type ConsentControls, type ConsentStore, type VisitorRegion } from './consent';

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

/** Attributes the banner markup carries (ConsentBanner.astro) and the footer's Cookie settings button. */
export const CONSENT_ATTRIBUTES = { banner: 'data-consent-banner', choice: 'data-consent-choice', settings: 'data-cookie-settings' } as const;

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

export function consentStore(storage: () => StorageLike): ConsentStore {
  return {
    read() {
      const value = safely(() => storage().getItem(STORAGE_KEYS.analyticsConsent), null);
      return CONSENT_CHOICES.find((choice) => choice === value);
    },
    write: (choice) => safely(() => storage().setItem(STORAGE_KEYS.analyticsConsent, choice), undefined),
  };
}

/** Asks the site whether the visitor's country needs consent, remembering the answer for the visit. Any failure means ask. */
export async function isConsentRequired(fetchFn: typeof fetch, session: () => StorageLike): Promise<boolean> {
  const cached = safely(() => session().getItem(STORAGE_KEYS.analyticsConsentRequired), null);
  if (cached === 'yes' || cached === 'no') return cached === 'yes';
  try {
    const response = await fetchFn(VISITOR_REGION_PATH, { headers: { accept: 'application/json' } });
    if (!response.ok) return true;
    const { consentRequired } = (await response.json()) as Partial<VisitorRegion>;
    const required = consentRequired !== false;
    safely(() => session().setItem(STORAGE_KEYS.analyticsConsentRequired, required ? 'yes' : 'no'), undefined);
    return required;
  } catch {
    return true;
  }
}

/** The banner in the page, or undefined when the page has none (no measurement ID). */
export function bannerControls(doc: Document): ConsentControls | undefined {
  const banner = doc.querySelector<HTMLElement>(`[${CONSENT_ATTRIBUTES.banner}]`);
  if (!banner) return undefined;
  // Where focus goes back to after a choice made from Cookie settings.
  let returnFocusTo: HTMLElement | null = null;
  return {
    show(fromSettings) {
      banner.hidden = false;
      if (fromSettings) {
        returnFocusTo = doc.activeElement instanceof HTMLElement ? doc.activeElement : null;
        banner.focus();
      }
    },
    hide() {
      banner.hidden = true;
      returnFocusTo?.focus();
      returnFocusTo = null;
    },
    listen({ choose, openSettings }) {
      banner.addEventListener('click', (event) => {
        const value = (event.target as Element | null)?.closest(`[${CONSENT_ATTRIBUTES.choice}]`)?.getAttribute(CONSENT_ATTRIBUTES.choice);
        const choice = CONSENT_CHOICES.find((c) => c === value);
        if (choice) choose(choice);
      });
      doc.querySelectorAll(`[${CONSENT_ATTRIBUTES.settings}]`).forEach((button) => button.addEventListener('click', openSettings));
    },
  };
}
