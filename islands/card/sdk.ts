// The card channels' browser SDKs, loaded from the providers' own origins
// as they require: Stripe.js from js.stripe.com (Stripe's terms: never in a
// bundle, never hosted by the merchant), Airwallex.js from the CDN address
// its documentation gives. Neither is bundled; the page that
// shows a card step has a Content-Security-Policy allowing that provider's
// origins (pkg/web/cardstep.go). The island reaches the SDKs only through
// this module, so its tests replace it.

export const STRIPE_JS = 'https://js.stripe.com/v3/';
export const AIRWALLEX_JS = 'https://static.airwallex.com/components/sdk/v1/index.js';

// What the island uses of Stripe.js (docs.stripe.com/js).
export type StripeError = { type?: string; code?: string; message?: string };
export type StripePaymentElement = {
  mount(el: HTMLElement): void;
  destroy(): void;
  on(event: 'ready' | 'loaderror', handler: (e?: { error?: StripeError }) => void): void;
};
export type StripeElements = { create(type: 'payment'): StripePaymentElement };
export type Stripe = {
  elements(options: { clientSecret: string; locale?: string }): StripeElements;
  confirmPayment(options: { elements: StripeElements; confirmParams: { return_url: string } }): Promise<{ error?: StripeError }>;
};

// What the island uses of Airwallex.js (airwallex.com/docs/js).
export type AirwallexCheckout = {
  intent_id: string;
  client_secret: string;
  currency: string;
  successUrl: string;
  locale?: string;
};
export type AirwallexPayments = { redirectToCheckout(options: AirwallexCheckout): string | void };
export type Airwallex = {
  init(options: { env: string; enabledElements: string[]; locale?: string }): Promise<{ payments?: AirwallexPayments }>;
};

declare global {
  interface Window {
    Stripe?: (publishableKey: string, options?: { locale?: string }) => Stripe;
    AirwallexComponentsSDK?: Airwallex;
  }
}

const loading = new Map<string, Promise<void>>();

// script adds <script src> once and resolves when it has run and started
// (started says whether its global is there); a script that failed to
// load or start is removed, so the next call tries again.
function script(src: string, started: () => boolean): Promise<void> {
  if (started()) return Promise.resolve();
  let p = loading.get(src);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const el = document.createElement('script');
      el.src = src;
      el.async = true;
      const fail = (why: string) => {
        loading.delete(src);
        el.remove();
        reject(new Error(`${src}: ${why}`));
      };
      el.addEventListener('load', () => (started() ? resolve() : fail('did not start')));
      el.addEventListener('error', () => fail('could not load'));
      document.head.appendChild(el);
    });
    loading.set(src, p);
  }
  return p;
}

// loadStripe is Stripe.js opened with the operator's publishable key.
export async function loadStripe(publishableKey: string, locale: string): Promise<Stripe> {
  await script(STRIPE_JS, () => !!window.Stripe);
  return window.Stripe!(publishableKey, { locale });
}

// loadAirwallex is Airwallex.js's payments element in env (demo, prod).
export async function loadAirwallex(env: string, locale: string): Promise<AirwallexPayments> {
  await script(AIRWALLEX_JS, () => !!window.AirwallexComponentsSDK);
  const { payments } = await window.AirwallexComponentsSDK!.init({ env, enabledElements: ['payments'], locale });
  if (!payments) throw new Error('Airwallex.js has no payments element');
  return payments;
}
