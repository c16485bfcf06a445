/**
 * The browser half of the bot-check (Cloudflare Turnstile, verified again by /api/send-notification).
 *
 * `getHumanCheckToken(action, place)` asks for a fresh single-use token: it loads Turnstile's script once
 * if absent, polls until `window.turnstile` is there, renders a widget that stays invisible unless Cloudflare
 * decides to challenge the visitor, in a container made for this one request inside `place` (the form), and
 * removes it again once the request is settled. When the widget needs the visitor (a Managed widget's
 * checkbox) Turnstile calls `before-interactive-callback`: the container is then shown under the form and
 * the 8-second safety timeout gives way to a longer one, so a challenged visitor can answer it.
 * It never throws: with no site key (the embedded mode), on a script-load failure, a widget error or after
 * a timeout it resolves with '' and the caller decides what an empty token means. The site key comes from
 * /api/human-check, asked once a page when a form first needs it, so one build serves any deploy's widget.
 *
 * The logic lives in `createHumanCheck(deps)` so tests can drive it with fakes; the browser wiring is at
 * the bottom.
 */
import { TIMINGS } from '@/config/constants';

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

/** The part of Turnstile's explicit-rendering API this module uses. */
export interface TurnstileRenderOptions {
  sitekey: string;
  action: string;
  appearance: 'interaction-only';
  execution: 'execute';
  'response-field': boolean;
  callback: (token: string) => void;
  // biome-ignore lint/suspicious/noConfusingVoidType: Turnstile's error callback returns true to mark the error handled, or nothing.
  'error-callback': (code?: string) => boolean | void;
  'expired-callback': () => void;
  'timeout-callback': () => void;
  'unsupported-callback': () => void;
  'before-interactive-callback': () => void;
  'after-interactive-callback': () => void;
}

export interface TurnstileApi {
  render: (container: HTMLElement, options: TurnstileRenderOptions) => string | null | undefined;
  execute: (widget: string | HTMLElement) => void;
  remove: (widget: string) => void;
}

export interface HumanCheckDeps {
  /** Unset or empty: the check is off and every token is ''. */
  siteKey: string | undefined;
  /** `window.turnstile`, once the script has defined it. */
  getTurnstile: () => TurnstileApi | undefined;
  /** True when a Turnstile script tag is already in the page (ours or someone else's). */
  hasScript: () => boolean;
  /** Adds the script tag; resolves when it loaded, rejects when it failed to. */
  loadScript: (src: string) => Promise<void>;
  /** A fresh element, not visible yet, inside `place` (or the page), one per token request. */
  createContainer: (place?: HTMLElement) => HTMLElement;
  /** Makes the container visible: the widget needs the visitor. */
  showContainer: (container: HTMLElement) => void;
  removeContainer: (container: HTMLElement) => void;
  log: Pick<Console, 'warn' | 'error'>;
  pollMs?: number;
  pollLimitMs?: number;
  timeoutMs?: number;
  interactiveTimeoutMs?: number;
}

export interface HumanCheck {
  /** True when a site key is configured, i.e. an empty token means the check did not pass. */
  enabled: boolean;
  /** Starts loading the script early (e.g. when a form appears), so a submit does not wait for it. */
  preload: () => void;
  /** `place`: where the widget appears if it needs the visitor (the form being sent). */
  getToken: (action: string, place?: HTMLElement) => Promise<string>;
}

export function createHumanCheck(deps: HumanCheckDeps): HumanCheck {
  const {
    pollMs = TIMINGS.humanCheckPollMs,
    pollLimitMs = TIMINGS.humanCheckPollLimitMs,
    timeoutMs = TIMINGS.humanCheckTimeoutMs,
    interactiveTimeoutMs = TIMINGS.humanCheckInteractiveTimeoutMs,
  } = deps;
  const siteKey = deps.siteKey?.trim() ?? '';
  let scriptLoad: Promise<boolean> | undefined;
  let availability: Promise<TurnstileApi | undefined> | undefined;

  /** Loads the script once per page (again only after a failure); false when it failed to load. */
  function ensureScript(): Promise<boolean> {
    if (!scriptLoad) {
      scriptLoad =
        deps.getTurnstile() || deps.hasScript()
          ? Promise.resolve(true)
          : deps.loadScript(TURNSTILE_SCRIPT_URL).then(
              () => true,
              (error: unknown) => {
                deps.log.error('[human-check] The Turnstile script failed to load; continuing without a token.', error);
                scriptLoad = undefined; // a later request tries again
                return false;
              },
            );
    }
    return scriptLoad;
  }

  /** Polls for `window.turnstile` every pollMs for up to pollLimitMs. */
  function waitForTurnstile(): Promise<TurnstileApi | undefined> {
    const now = deps.getTurnstile();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const started = Date.now();
      const timer = setInterval(() => {
        const api = deps.getTurnstile();
        if (api || Date.now() - started >= pollLimitMs) {
          clearInterval(timer);
          if (!api) deps.log.warn(`[human-check] Turnstile was not available within ${pollLimitMs} ms; continuing without a token.`);
          resolve(api);
        }
      }, pollMs);
    });
  }

  /** Script plus availability, shared by every request on the page; a failed wait is retried next time. */
  function turnstileReady(): Promise<TurnstileApi | undefined> {
    if (!availability) {
      availability = ensureScript().then((loaded) => (loaded ? waitForTurnstile() : undefined));
      void availability.then((api) => {
        if (!api) availability = undefined;
      });
    }
    return availability;
  }

  function requestToken(api: TurnstileApi, action: string, place: HTMLElement | undefined): Promise<string> {
    return new Promise((resolve) => {
      const container = deps.createContainer(place);
      let widgetId: string | null | undefined;
      let settled = false;
      const finish = (token: string, problem?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (problem) deps.log.warn(`[human-check] ${problem}; continuing without a token.`);
        try {
          if (widgetId) api.remove(widgetId);
        } catch {
          // The widget is gone either way once its container is.
        }
        deps.removeContainer(container);
        resolve(token);
      };
      let timer = setTimeout(() => finish('', `No token after ${timeoutMs} ms`), timeoutMs);
      try {
        widgetId = api.render(container, {
          sitekey: siteKey,
          action,
          appearance: 'interaction-only',
          execution: 'execute',
          'response-field': false,
          callback: (token) => finish(token, token ? undefined : 'Turnstile returned an empty token'),
          'error-callback': (code) => {
            finish('', `Turnstile reported error ${code ?? '(no code)'}`);
            return true; // handled: Turnstile need not log it again
          },
          'expired-callback': () => finish('', 'The Turnstile token expired'),
          'timeout-callback': () => finish('', 'The Turnstile challenge timed out'),
          'unsupported-callback': () => finish('', 'This browser is not supported by Turnstile'),
          'before-interactive-callback': () => {
            if (settled) return;
            deps.showContainer(container);
            clearTimeout(timer);
            timer = setTimeout(() => finish('', `The visitor did not answer the challenge within ${interactiveTimeoutMs} ms`), interactiveTimeoutMs);
          },
          'after-interactive-callback': () => {}, // the token (or an error) follows through the callbacks above
        });
        if (!widgetId) return finish('', 'Turnstile did not render a widget');
        api.execute(widgetId);
      } catch (error) {
        finish('', `Turnstile failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  return {
    enabled: siteKey !== '',
    preload: () => {
      if (siteKey) void turnstileReady();
    },
    getToken: async (action, place) => {
      if (!siteKey) return '';
      try {
        const api = await turnstileReady(); // undefined: already logged why
        return api ? await requestToken(api, action, place) : '';
      } catch (error) {
        deps.log.error('[human-check] Unexpected failure; continuing without a token.', error);
        return '';
      }
    },
  };
}

/* ---------- browser wiring ---------- */

function browserDeps(siteKey: string | undefined): HumanCheckDeps {
  const win = window as Window & { turnstile?: TurnstileApi };
  return {
    siteKey,
    getTurnstile: () => win.turnstile,
    hasScript: () => document.querySelector('script[src^="https://challenges.cloudflare.com/turnstile/"]') !== null,
    loadScript: (src) =>
      new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = src;
        script.async = true;
        script.defer = true;
        script.addEventListener('load', () => resolve());
        script.addEventListener('error', () => {
          script.remove(); // so a later request can try again
          reject(new Error(`could not load ${src}`));
        });
        document.head.append(script);
      }),
    createContainer: (place) => {
      const container = document.createElement('div');
      container.dataset.humanCheck = '';
      // Rendered but out of sight until Turnstile says it needs the visitor, which it may never do
      // (not display:none, so the widget can run its checks as on any page).
      container.className = 'sr-only';
      container.setAttribute('aria-hidden', 'true');
      (place ?? document.body).append(container);
      return container;
    },
    showContainer: (container) => {
      container.className = 'mt-4';
      container.removeAttribute('aria-hidden');
      container.scrollIntoView({ block: 'nearest' });
    },
    removeContainer: (container) => container.remove(),
    log: console,
  };
}

const HUMAN_CHECK_PATH = '/api/human-check';

let browserCheck: Promise<HumanCheck> | undefined;

/** The page's check, made once its site key is known; a key that could not be read is asked again next time. */
export function humanCheck(): Promise<HumanCheck> {
  browserCheck ??= fetch(HUMAN_CHECK_PATH)
    .then((response) => (response.ok ? (response.json() as Promise<{ siteKey: string | null }>) : Promise.reject(new Error(`HTTP ${response.status}`))))
    .then(
      ({ siteKey }) => createHumanCheck(browserDeps(siteKey ?? undefined)),
      (error: unknown) => {
        console.warn('[human-check] The site key could not be read; sending without a token.', error);
        browserCheck = undefined;
        return createHumanCheck(browserDeps(undefined));
      },
    );
  return browserCheck;
}

/** Starts loading Turnstile ahead of a submit; does nothing without a site key. */
export function preloadHumanCheck(): void {
  void humanCheck().then((check) => check.preload());
}
