import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nContext } from './useT';
import { bothLanguages } from './testing';
import { CardPayment, returned, type CardPaymentProps } from './CardPayment';
import type { AirwallexCheckout, StripeError } from './card/sdk';

// The providers' SDKs are replaced at the module boundary: the island's
// calls are recorded and answered as Stripe.js and Airwallex.js answer.
const sdk = vi.hoisted(() => ({
  loadStripe: vi.fn(),
  loadAirwallex: vi.fn(),
}));
vi.mock('./card/sdk', () => sdk);

type StripeCalls = {
  elements: { clientSecret: string; locale?: string }[];
  mounted: HTMLElement[];
  confirm: { return_url: string }[];
  destroyed: number;
};

// fakeStripe is Stripe.js whose Payment Element is ready at once and whose
// confirmPayment answers each of answers in turn.
function fakeStripe(answers: { error?: StripeError }[] = []): StripeCalls {
  const calls: StripeCalls = { elements: [], mounted: [], confirm: [], destroyed: 0 };
  sdk.loadStripe.mockImplementation(async () => ({
    elements(o: { clientSecret: string; locale?: string }) {
      calls.elements.push(o);
      const handlers: Record<string, () => void> = {};
      return {
        create: () => ({
          on: (ev: string, h: () => void) => {
            handlers[ev] = h;
          },
          mount(el: HTMLElement) {
            calls.mounted.push(el);
            queueMicrotask(() => handlers.ready?.());
          },
          destroy() {
            calls.destroyed++;
          },
        }),
      };
    },
    async confirmPayment(o: { confirmParams: { return_url: string } }) {
      calls.confirm.push(o.confirmParams);
      return answers.shift() ?? {};
    },
  }));
  return calls;
}

let en: i18n;
let cn: i18n;
beforeAll(async () => {
  ({ en, cn } = await bothLanguages());
});

// at puts the page at path (the detail page, with what a provider added).
function at(path: string) {
  window.history.replaceState(null, '', path);
}

beforeEach(() => {
  sdk.loadStripe.mockReset();
  sdk.loadAirwallex.mockReset();
  at('/flight/orders/7');
});

const stripeProps: CardPaymentProps = {
  provider: 'stripe',
  channelName: 'Stripe',
  amount: '1280.00 CNY',
  publishableKey: 'pk_test_voyage',
  intentId: 'pi_123',
  clientSecret: 'pi_123_secret_abc',
  currency: 'CNY',
  returnPath: '/flight/orders/7',
  lang: 'en',
};

const airwallexProps: CardPaymentProps = {
  ...stripeProps,
  provider: 'airwallex',
  channelName: 'Airwallex',
  publishableKey: undefined,
  env: 'demo',
  intentId: 'int_hk123',
  clientSecret: 'awx_secret',
};

function show(p: CardPaymentProps, i: i18n = en) {
  return render(
    <I18nContext.Provider value={i}>
      <CardPayment {...p} />
    </I18nContext.Provider>,
  );
}

describe('CardPayment with Stripe', () => {
  it('mounts the Payment Element with the publishable key and client secret, and confirms with the detail page as return URL', async () => {
    const calls = fakeStripe();
    show(stripeProps);
    const pay = await screen.findByRole('button', { name: 'Pay 1280.00 CNY' });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    expect(sdk.loadStripe).toHaveBeenCalledWith('pk_test_voyage', 'en');
    expect(calls.elements).toEqual([{ clientSecret: 'pi_123_secret_abc', locale: 'en' }]);
    expect(calls.mounted).toHaveLength(1);
    expect(screen.getByRole('form', { name: 'Card payment by Stripe' }).contains(calls.mounted[0])).toBe(true);
    fireEvent.click(pay);
    await waitFor(() => expect(calls.confirm).toEqual([{ return_url: `${window.location.origin}/flight/orders/7` }]));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows Stripe's card error in the form and lets the payer try again; any other error in our words", async () => {
    const calls = fakeStripe([
      { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } },
      { error: { type: 'api_connection_error', message: 'socket hang up' } },
    ]);
    show(stripeProps);
    const pay = await screen.findByRole('button', { name: 'Pay 1280.00 CNY' });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(pay);
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(pay);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The payment could not be sent to Stripe. Try again.'));
    expect(calls.confirm).toHaveLength(2);
  });

  it('says so when Stripe.js cannot be loaded, and offers no Pay button to press', async () => {
    sdk.loadStripe.mockRejectedValue(new Error('blocked'));
    show(stripeProps, cn);
    expect((await screen.findByRole('alert')).textContent).toBe('无法加载Stripe的银行卡表单。请检查网络连接后刷新页面。');
    expect((screen.getByRole('button', { name: '支付 1280.00 CNY' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the payment as sent when Stripe sends the payer back for this intent, without opening the form again', async () => {
    fakeStripe();
    at('/flight/orders/7?payment_intent=pi_123&payment_intent_client_secret=pi_123_secret_abc&redirect_status=succeeded');
    show(stripeProps);
    expect(screen.getByRole('status').textContent).toBe("The card payment was sent; waiting for the channel's confirmation.");
    expect(screen.queryByRole('button')).toBeNull();
    expect(sdk.loadStripe).not.toHaveBeenCalled();
  });

  it('opens the form again with the decline shown when Stripe sends the payer back unpaid', async () => {
    fakeStripe();
    at('/flight/orders/7?payment_intent=pi_123&redirect_status=requires_payment_method');
    show(stripeProps);
    expect(screen.getByRole('alert').textContent).toBe('The card payment did not go through. Check the card details or use another card.');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Pay 1280.00 CNY' }) as HTMLButtonElement).disabled).toBe(false));
  });

  it("takes the zh-tw page's language to Stripe", async () => {
    const calls = fakeStripe();
    show({ ...stripeProps, lang: 'zh-tw' });
    await waitFor(() => expect(calls.elements).toHaveLength(1));
    expect(sdk.loadStripe).toHaveBeenCalledWith('pk_test_voyage', 'zh-TW');
    expect(calls.elements[0].locale).toBe('zh-TW');
  });
});

describe('CardPayment with Airwallex', () => {
  it('redirects to the hosted payment page with the intent, client secret, currency and the detail page as success URL', async () => {
    const checkout: AirwallexCheckout[] = [];
    sdk.loadAirwallex.mockResolvedValue({ redirectToCheckout: (o: AirwallexCheckout) => void checkout.push(o) });
    show({ ...airwallexProps, channelName: '空中云汇', lang: 'zh-cn' }, cn);
    fireEvent.click(screen.getByRole('button', { name: '前往空中云汇页面用银行卡付款' }));
    await waitFor(() => expect(checkout).toHaveLength(1));
    expect(sdk.loadAirwallex).toHaveBeenCalledWith('demo', 'zh');
    expect(checkout[0]).toEqual({
      intent_id: 'int_hk123',
      client_secret: 'awx_secret',
      currency: 'CNY',
      successUrl: `${window.location.origin}/flight/orders/7?card_payment=int_hk123`,
      locale: 'zh',
    });
  });

  it('shows a failed SDK load and lets the payer try again', async () => {
    sdk.loadAirwallex.mockRejectedValueOnce(new Error('blocked'));
    show(airwallexProps);
    const go = screen.getByRole('button', { name: "Pay by card on Airwallex's page" });
    fireEvent.click(go);
    expect((await screen.findByRole('alert')).textContent).toBe("Airwallex's card form could not be loaded. Check the connection and refresh the page.");
    await waitFor(() => expect((go as HTMLButtonElement).disabled).toBe(false));
  });

  it('shows the payment as sent on the success URL of this intent only', () => {
    at('/flight/orders/7?card_payment=int_hk123');
    show(airwallexProps);
    expect(screen.getByRole('status').textContent).toBe("The card payment was sent; waiting for the channel's confirmation.");
    expect(returned('?card_payment=int_other', 'int_hk123')).toBeNull();
    expect(returned('?payment_intent=pi_old&redirect_status=succeeded', 'pi_123')).toBeNull();
  });
});
