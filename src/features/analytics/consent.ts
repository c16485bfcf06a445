/**
 * Analytics consent (Google Consent Mode v2), as pure functions over small interfaces so they run in tests
 * without a DOM.
 *
 * Before the tag loads, the defaults deny analytics and ad storage in the countries that ask for consent
 * and grant them elsewhere; Google applies the regional default by the visitor's IP, a safety net for
 * when our own look-up and Google's disagree. Our own rule is stricter: where consent is needed (or the
 * country is unknown) gtag.js is not loaded at all until the visitor accepts, so nothing reaches Google
 * before then. A stored choice wins over the country everywhere, and each choice is sent to the tag with
 * `gtag('consent', 'update', …)`.
 */
// Relative imports only: the visitor-region function imports this file and its bundler does not know the `@/` alias.
import { CONSENT_REQUIRED_COUNTRIES } from '../../config/constants';

export type ConsentChoice = 'granted' | 'denied';

export const CONSENT_CHOICES: readonly ConsentChoice[] = ['granted', 'denied'];

type Gtag = (...args: unknown[]) => void;

/** The Consent Mode state for a choice. The shop uses no Google advertising, so ad data and personalisation stay off. */
function consentState(choice: ConsentChoice) {
  return { analytics_storage: choice, ad_storage: choice, ad_user_data: 'denied', ad_personalization: 'denied' } as const;
}

/** True where the law asks for consent first, and when the country is unknown (then we ask). */
export function consentRequiredIn(country: string | null | undefined): boolean {
  if (!country) return true;
  return (CONSENT_REQUIRED_COUNTRIES as readonly string[]).includes(country.toUpperCase());
}

/** The consent defaults, queued before the tag's first command. The region-scoped default takes precedence where it applies. */
export function setConsentDefaults(gtag: Gtag): void {
  gtag('consent', 'default', { ...consentState('denied'), region: [...CONSENT_REQUIRED_COUNTRIES] });
  gtag('consent', 'default', consentState('granted'));
}

export interface ConsentStore {
  read(): ConsentChoice | undefined;
  write(choice: ConsentChoice): void;
}

/** The banner and the footer's Cookie settings control, as the consent flow sees them. */
export interface ConsentControls {
  /** `fromSettings`: the visitor asked for it, so keyboard focus moves into the banner. */
  show(fromSettings: boolean): void;
  hide(): void;
  listen(handlers: { choose: (choice: ConsentChoice) => void; openSettings: () => void }): void;
}

export interface ConsentDeps {
  store: ConsentStore;
  /** Whether the visitor's country asks for consent; asked only when there is no stored choice. */
  isConsentRequired: () => Promise<boolean>;
  /** Absent when the page has no banner; then analytics loads only for a stored or regional grant. */
  controls?: ConsentControls | undefined;
}

/**
 * Applies a stored choice, or asks where consent is needed; calls `grant` (which loads the tag) once analytics may run.
 * `grant` may be called more than once and must load things only once.
 */
export function startConsent(gtag: Gtag, { store, isConsentRequired, controls }: ConsentDeps, grant: () => void): void {
  controls?.listen({
    choose(choice) {
      store.write(choice);
      gtag('consent', 'update', consentState(choice));
      controls.hide();
      if (choice === 'granted') grant();
    },
    openSettings: () => controls.show(true),
  });

  const stored = store.read();
  if (stored) {
    gtag('consent', 'update', consentState(stored));
    if (stored === 'granted') grant();
    return;
  }
  isConsentRequired().then(
    (required) => (required ? controls?.show(false) : grant()),
    () => controls?.show(false),
  );
}

/** The answer of /api/visitor-region. */
export interface VisitorRegion {
  country: string | null;
  consentRequired: boolean;
}

export const VISITOR_REGION_PATH = '/api/visitor-region';
