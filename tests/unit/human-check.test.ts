import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TIMINGS } from '@/config/constants';
import { createHumanCheck, TURNSTILE_SCRIPT_URL, type HumanCheckDeps, type TurnstileApi, type TurnstileRenderOptions } from '@/features/forms/human-check';
import humanCheckConfig from '../../functions/human-check';

/** A fake `window.turnstile`: records renders and lets the test decide how each widget answers. */
function fakeTurnstile(answer: (options: TurnstileRenderOptions) => void = (o) => o.callback(`token-for-${o.action}`)) {
  const rendered: Array<{ container: HTMLElement; options: TurnstileRenderOptions; id: string }> = [];
  const removed: string[] = [];
  const executed: string[] = [];
  let next = 0;
  const api: TurnstileApi = {
    render: (container, options) => {
      const id = `widget-${++next}`;
      rendered.push({ container, options, id });
      return id;
    },
    execute: (widget) => {
      executed.push(String(widget));
      const entry = rendered.find((r) => r.id === widget);
      if (entry) answer(entry.options);
    },
    remove: (id) => void removed.push(id),
  };
  return { api, rendered, removed, executed };
}

function setup(overrides: Partial<HumanCheckDeps> = {}) {
  const containers = new Set<HTMLElement>();
  const shown = new Set<HTMLElement>();
  const places: Array<HTMLElement | undefined> = [];
  const log = { warn: vi.fn(), error: vi.fn() };
  let turnstile: TurnstileApi | undefined;
  const loadScript = vi.fn(async (_src: string) => {});
  const deps: HumanCheckDeps = {
    siteKey: 'site-key',
    getTurnstile: () => turnstile,
    hasScript: () => false,
    loadScript,
    createContainer: (place) => {
      places.push(place);
      const el = { id: `c${containers.size}` } as unknown as HTMLElement;
      containers.add(el);
      return el;
    },
    showContainer: (el) => void shown.add(el),
    removeContainer: (el) => void containers.delete(el),
    log,
    ...overrides,
  };
  return { deps, containers, shown, places, log, loadScript, setTurnstile: (api: TurnstileApi | undefined) => (turnstile = api) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('human-check token (browser side of Turnstile)', () => {
  it('resolves an empty token at once, loading nothing, when no site key is configured', async () => {
    for (const siteKey of [undefined, '', '   ']) {
      const { deps, loadScript } = setup({ siteKey });
      const check = createHumanCheck(deps);
      expect(check.enabled).toBe(false);
      check.preload();
      await expect(check.getToken('contact_form')).resolves.toBe('');
      expect(loadScript).not.toHaveBeenCalled();
    }
  });

  it('loads the script once, polls until window.turnstile exists, and renders an invisible widget for the action', async () => {
    const { deps, loadScript, setTurnstile, containers } = setup();
    const fake = fakeTurnstile();
    const check = createHumanCheck(deps);
    const pending = check.getToken('newsletter_subscribe');

    // The script "loads" but defines window.turnstile only a few polls later.
    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckPollMs * 3);
    expect(fake.rendered).toHaveLength(0);
    setTurnstile(fake.api);
    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckPollMs);

    await expect(pending).resolves.toBe('token-for-newsletter_subscribe');
    expect(loadScript).toHaveBeenCalledTimes(1);
    expect(loadScript).toHaveBeenCalledWith(TURNSTILE_SCRIPT_URL);
    expect(TURNSTILE_SCRIPT_URL).toBe('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit');
    const [widget] = fake.rendered;
    expect(widget?.options).toMatchObject({ sitekey: 'site-key', action: 'newsletter_subscribe', appearance: 'interaction-only', execution: 'execute' });
    expect(fake.executed).toEqual([widget?.id]);
    // The widget and its off-screen container are gone once the token is in.
    expect(fake.removed).toEqual([widget?.id]);
    expect(containers.size).toBe(0);

    // A second request reuses the loaded script and gets its own container and widget.
    await expect(check.getToken('contact_form')).resolves.toBe('token-for-contact_form');
    expect(loadScript).toHaveBeenCalledTimes(1);
    expect(fake.rendered).toHaveLength(2);
    expect(fake.rendered[0]?.container).not.toBe(fake.rendered[1]?.container);
    expect(containers.size).toBe(0);
  });

  it('does not add the script when Turnstile is already on the page', async () => {
    const fake = fakeTurnstile();
    const { deps, loadScript, setTurnstile } = setup({ hasScript: () => true });
    setTurnstile(fake.api);
    await expect(createHumanCheck(deps).getToken('contact_form')).resolves.toBe('token-for-contact_form');
    expect(loadScript).not.toHaveBeenCalled();
  });

  it('preload starts the script early, so a later submit does not load it again', async () => {
    const { deps, loadScript, setTurnstile } = setup();
    const check = createHumanCheck(deps);
    check.preload();
    expect(loadScript).toHaveBeenCalledTimes(1);
    setTurnstile(fakeTurnstile().api);
    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckPollMs);
    await expect(check.getToken('contact_form')).resolves.toBe('token-for-contact_form');
    expect(loadScript).toHaveBeenCalledTimes(1);
  });

  it('resolves an empty token, logged, when the script fails to load, and tries again on the next request', async () => {
    const api = fakeTurnstile().api;
    const loadScript = vi.fn().mockRejectedValueOnce(new Error('blocked'));
    const { deps, log, setTurnstile } = setup({ loadScript });
    loadScript.mockImplementation(async () => void setTurnstile(api));
    const check = createHumanCheck(deps);
    await expect(check.getToken('contact_form')).resolves.toBe('');
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('failed to load'), expect.any(Error));

    await expect(check.getToken('contact_form')).resolves.toBe('token-for-contact_form');
    expect(loadScript).toHaveBeenCalledTimes(2);
  });

  it('stops polling after the poll limit and resolves an empty token when window.turnstile never appears', async () => {
    const { deps, log } = setup();
    const pending = createHumanCheck(deps).getToken('contact_form');
    let result: string | undefined;
    void pending.then((token) => (result = token));

    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckPollLimitMs - TIMINGS.humanCheckPollMs);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckPollMs);
    expect(result).toBe('');
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining(`${TIMINGS.humanCheckPollLimitMs} ms`));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves an empty token after the safety timeout when the widget never answers, and cleans up', async () => {
    const fake = fakeTurnstile(() => {}); // never calls back
    const { deps, setTurnstile, containers } = setup();
    setTurnstile(fake.api);
    const pending = createHumanCheck(deps).getToken('contact_form');
    let result: string | undefined;
    void pending.then((token) => (result = token));

    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckTimeoutMs - 1);
    expect(result).toBeUndefined();
    expect(containers.size).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe('');
    expect(fake.removed).toHaveLength(1);
    expect(containers.size).toBe(0);
  });

  it.each([
    ['error-callback', (o: TurnstileRenderOptions) => o['error-callback']('300030')],
    ['timeout-callback', (o: TurnstileRenderOptions) => o['timeout-callback']()],
    ['expired-callback', (o: TurnstileRenderOptions) => o['expired-callback']()],
    ['unsupported-callback', (o: TurnstileRenderOptions) => o['unsupported-callback']()],
    ['an empty token', (o: TurnstileRenderOptions) => o.callback('')],
    [
      'a throwing execute',
      () => {
        throw new Error('boom');
      },
    ],
  ])('resolves an empty token on %s and removes the container', async (_name, answer) => {
    const fake = fakeTurnstile(answer);
    const { deps, setTurnstile, containers, log } = setup();
    setTurnstile(fake.api);
    await expect(createHumanCheck(deps).getToken('contact_form')).resolves.toBe('');
    expect(containers.size).toBe(0);
    expect(log.warn).toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a late callback after the timeout changes nothing', async () => {
    let late: ((token: string) => void) | undefined;
    const fake = fakeTurnstile((o) => (late = o.callback));
    const { deps, setTurnstile } = setup();
    setTurnstile(fake.api);
    const pending = createHumanCheck(deps).getToken('contact_form');
    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckTimeoutMs);
    await expect(pending).resolves.toBe('');
    expect(() => late?.('too-late')).not.toThrow();
    expect(fake.removed).toHaveLength(1);
  });

  it('shows the widget in the given place when it needs the visitor, and waits for the answer past the 8 s timeout', async () => {
    let answer: TurnstileRenderOptions | undefined;
    const fake = fakeTurnstile((o) => {
      answer = o;
      o['before-interactive-callback'](); // a Managed widget decided to show its checkbox
    });
    const { deps, setTurnstile, containers, shown, places } = setup();
    setTurnstile(fake.api);
    const form = { id: 'the-form' } as unknown as HTMLElement;
    let result: string | undefined;
    void createHumanCheck(deps)
      .getToken('contact_form', form)
      .then((token) => (result = token));
    await vi.advanceTimersByTimeAsync(0);

    expect(places).toEqual([form]);
    expect([...shown]).toEqual([...containers]);
    expect(fake.rendered[0]?.options.appearance).toBe('interaction-only');
    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckTimeoutMs * 3);
    expect(result).toBeUndefined(); // still waiting for the visitor

    answer?.['after-interactive-callback']();
    answer?.callback('solved-token');
    await vi.advanceTimersByTimeAsync(0);
    expect(result).toBe('solved-token');
    expect(containers.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a challenge the visitor never answers ends with an empty token after the interactive timeout', async () => {
    const fake = fakeTurnstile((o) => o['before-interactive-callback']());
    const { deps, setTurnstile, containers, log } = setup();
    setTurnstile(fake.api);
    let result: string | undefined;
    void createHumanCheck(deps)
      .getToken('contact_form')
      .then((token) => (result = token));
    await vi.advanceTimersByTimeAsync(TIMINGS.humanCheckInteractiveTimeoutMs - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe('');
    expect(containers.size).toBe(0);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('did not answer the challenge'));
  });

  it('an invisible pass never shows the container', async () => {
    const fake = fakeTurnstile();
    const { deps, setTurnstile, shown } = setup();
    setTurnstile(fake.api);
    await expect(createHumanCheck(deps).getToken('newsletter_subscribe')).resolves.toBe('token-for-newsletter_subscribe');
    expect(shown.size).toBe(0);
  });

  it('resolves an empty token when render throws or gives no widget id', async () => {
    for (const render of [
      () => {
        throw new Error('bad sitekey');
      },
      () => undefined,
    ]) {
      const { deps, setTurnstile, containers } = setup();
      setTurnstile({ render, execute: () => {}, remove: () => {} });
      await expect(createHumanCheck(deps).getToken('contact_form')).resolves.toBe('');
      expect(containers.size).toBe(0);
    }
  });
});

describe('GET /api/human-check', () => {
  it('hands the forms the site key the deploy sets, and null where the bot-check is off', async () => {
    const saved = process.env.PUBLIC_TURNSTILE_SITE_KEY;
    try {
      process.env.PUBLIC_TURNSTILE_SITE_KEY = '1x00000000000000000000AA';
      const on = await humanCheckConfig(new Request('http://shop.test/api/human-check'));
      expect([on.status, await on.json()]).toEqual([200, { siteKey: '1x00000000000000000000AA' }]);
      process.env.PUBLIC_TURNSTILE_SITE_KEY = ' ';
      expect(await (await humanCheckConfig(new Request('http://shop.test/api/human-check'))).json()).toEqual({ siteKey: null });
    } finally {
      if (saved === undefined) delete process.env.PUBLIC_TURNSTILE_SITE_KEY;
      else process.env.PUBLIC_TURNSTILE_SITE_KEY = saved;
    }
  });
});
