// CardPayment is a card payment's step in the payer's browser, on the
// booking's detail page (templates.PendingCardPayment): Stripe's Payment
// Element in the page, or Airwallex's hosted payment page. Either sends the
// payer back to the detail page, where the payment shows as sent until the
// channel's notification settles it (the page's status poll then reloads
// it, paid).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useT } from './useT';
import { loadAirwallex, loadStripe, type Stripe, type StripeElements, type StripeError, type StripePaymentElement } from './card/sdk';

export type CardPaymentProps = {
  provider: string;
  channelName: string;
  amount: string;
  publishableKey?: string;
  env?: string;
  intentId: string;
  clientSecret: string;
  currency: string;
  returnPath: string;
  lang: string;
};

// The query parameter Airwallex's successUrl carries back: the intent paid.
export const airwallexReturn = 'card_payment';

// returned is what the URL the provider sent the payer back to says of the
// intent: Stripe adds payment_intent and redirect_status to return_url;
// Airwallex opens successUrl, which names the intent. null: the payer did
// not come back from paying this intent.
export function returned(search: string, intentId: string): 'sent' | 'declined' | null {
  const q = new URLSearchParams(search);
  if (q.get('payment_intent') === intentId) {
    const status = q.get('redirect_status');
    return status === 'succeeded' || status === 'processing' ? 'sent' : 'declined';
  }
  return q.get(airwallexReturn) === intentId ? 'sent' : null;
}

// returnURL is the booking's detail page as an absolute URL (the providers
// take no relative one).
export function returnURL(p: CardPaymentProps): string {
  const u = new URL(p.returnPath, window.location.href);
  if (p.provider === 'airwallex') u.searchParams.set(airwallexReturn, p.intentId);
  return u.href;
}

// The providers' names for the page's languages.
const stripeLocales: Record<string, string> = { en: 'en', 'zh-cn': 'zh', 'zh-tw': 'zh-TW' };
const airwallexLocales: Record<string, string> = { en: 'en', 'zh-cn': 'zh', 'zh-tw': 'zh-HK' };

export function CardPayment(p: CardPaymentProps) {
  const { t } = useT();
  const [back] = useState(() => returned(window.location.search, p.intentId));
  if (back === 'sent') {
    return (
      <p className="card-payment-sent" role="status">
        {t('payment.card.sent')}
      </p>
    );
  }
  if (p.provider === 'airwallex') return <AirwallexStep {...p} />;
  return <StripeStep {...p} declined={back === 'declined'} />;
}

// StripeStep mounts the Payment Element with the intent's client secret and
// confirms the payment with it; Stripe sends the payer to return_url, or
// answers an error, shown in the form.
function StripeStep(p: CardPaymentProps & { declined: boolean }) {
  const { t } = useT();
  const channel = p.channelName;
  const mountAt = useRef<HTMLDivElement>(null);
  const sdk = useRef<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'sending'>('loading');
  const [error, setError] = useState(p.declined ? t('payment.card.declined') : '');

  useEffect(() => {
    let gone = false;
    let element: StripePaymentElement | undefined;
    const locale = stripeLocales[p.lang] || 'auto';
    loadStripe(p.publishableKey || '', locale)
      .then((stripe) => {
        if (gone || !mountAt.current) return;
        const elements = stripe.elements({ clientSecret: p.clientSecret, locale });
        element = elements.create('payment');
        element.on('ready', () => {
          if (!gone) setState('ready');
        });
        element.on('loaderror', () => {
          if (!gone) setError(t('payment.card.loadFailed', { channel }));
        });
        element.mount(mountAt.current);
        sdk.current = { stripe, elements };
      })
      .catch(() => {
        if (!gone) setError(t('payment.card.loadFailed', { channel }));
      });
    return () => {
      gone = true;
      element?.destroy();
      sdk.current = null;
    };
    // The form is made once per intent; t and the labels do not change it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [p.publishableKey, p.clientSecret]);

  async function pay(ev: FormEvent) {
    ev.preventDefault();
    const s = sdk.current;
    if (!s || state !== 'ready') return;
    setState('sending');
    setError('');
    let answer: { error?: StripeError };
    try {
      answer = await s.stripe.confirmPayment({ elements: s.elements, confirmParams: { return_url: returnURL(p) } });
    } catch {
      answer = { error: {} };
    }
    // On success Stripe leaves the page for return_url: an answer is an
    // error. Card and form errors have a message for the payer (in the
    // form's language); any other is ours to say.
    if (answer.error) {
      const e = answer.error;
      setError((e.type === 'card_error' || e.type === 'validation_error') && e.message ? e.message : t('payment.card.sendFailed', { channel }));
      setState('ready');
    }
  }

  return (
    <form className="card-payment-form" aria-label={t('payment.card.formLabel', { channel })} onSubmit={pay} noValidate>
      {state === 'loading' && !error && <p className="mgr-muted">{t('payment.card.loading', { channel })}</p>}
      <div className="card-payment-element" ref={mountAt} />
      {error && (
        <p className="form-errors" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={state !== 'ready'}>
        {state === 'sending' ? t('payment.card.sending') : t('payment.card.pay', { amount: p.amount })}
      </button>
    </form>
  );
}

// AirwallexStep sends the payer to Airwallex's hosted payment page for the
// intent, which sends them back to the detail page once paid.
function AirwallexStep(p: CardPaymentProps) {
  const { t } = useT();
  const channel = p.channelName;
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState('');

  async function open() {
    setOpening(true);
    setError('');
    const locale = airwallexLocales[p.lang] || 'en';
    try {
      const payments = await loadAirwallex(p.env || 'prod', locale);
      payments.redirectToCheckout({
        intent_id: p.intentId,
        client_secret: p.clientSecret,
        currency: p.currency,
        successUrl: returnURL(p),
        locale,
      });
    } catch {
      setError(t('payment.card.loadFailed', { channel }));
      setOpening(false);
    }
  }

  return (
    <div className="card-payment-form">
      <p>{t('payment.card.hostedNote', { channel })}</p>
      {error && (
        <p className="form-errors" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="btn btn-primary" onClick={() => void open()} disabled={opening}>
        {opening ? t('payment.card.opening', { channel }) : t('payment.card.hosted', { channel })}
      </button>
    </div>
  );
}
