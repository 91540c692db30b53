import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Each test has the module fresh: what an earlier one loaded is not
// remembered.
let sdk: typeof import('./sdk');
beforeEach(async () => {
  vi.resetModules();
  sdk = await import('./sdk');
});

// jsdom runs no outside script: the test plays the provider's script,
// defining its global and firing load (or error) on the tag the loader
// added.
function tag(src: string): HTMLScriptElement {
  const el = Array.from(document.head.querySelectorAll('script')).find((s) => s.src === src);
  if (!el) throw new Error(`no <script src=${src}>`);
  return el;
}

afterEach(() => {
  delete window.Stripe;
  delete window.AirwallexComponentsSDK;
  document.head.innerHTML = '';
});

describe('the providers’ SDKs', () => {
  it('loads Stripe.js from js.stripe.com once and opens it with the publishable key', async () => {
    const stripe = {};
    const first = sdk.loadStripe('pk_test_1', 'zh');
    const second = sdk.loadStripe('pk_test_1', 'zh');
    expect(document.head.querySelectorAll('script')).toHaveLength(1);
    const open = vi.fn(() => stripe);
    window.Stripe = open as unknown as typeof window.Stripe;
    tag(sdk.STRIPE_JS).dispatchEvent(new Event('load'));
    expect(await first).toBe(stripe);
    expect(await second).toBe(stripe);
    expect(open).toHaveBeenCalledWith('pk_test_1', { locale: 'zh' });
    expect(sdk.STRIPE_JS).toBe('https://js.stripe.com/v3/');
  });

  it('rejects when the script cannot load, and tries again on the next call', async () => {
    const first = sdk.loadStripe('pk_test_1', 'en');
    tag(sdk.STRIPE_JS).dispatchEvent(new Event('error'));
    await expect(first).rejects.toThrow(/could not load/);
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
    void sdk.loadStripe('pk_test_1', 'en').catch(() => {});
    expect(document.head.querySelectorAll('script')).toHaveLength(1);
  });

  it('rejects a script that loaded without starting', async () => {
    const loaded = sdk.loadAirwallex('prod', 'en');
    tag(sdk.AIRWALLEX_JS).dispatchEvent(new Event('load'));
    await expect(loaded).rejects.toThrow(/did not start/);
  });

  it("initialises Airwallex.js's payments element in the configured environment", async () => {
    const payments = { redirectToCheckout: vi.fn() };
    const init = vi.fn(async () => ({ payments }));
    const loaded = sdk.loadAirwallex('demo', 'zh-HK');
    window.AirwallexComponentsSDK = { init };
    tag(sdk.AIRWALLEX_JS).dispatchEvent(new Event('load'));
    expect(await loaded).toBe(payments);
    expect(init).toHaveBeenCalledWith({ env: 'demo', enabledElements: ['payments'], locale: 'zh-HK' });
  });
});
