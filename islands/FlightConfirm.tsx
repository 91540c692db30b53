// FlightConfirm is the /flight/booking/confirm island (spec §2 booking
// confirmation): it checks the chosen solution's price again and lets the
// user decide on any change (spec §4), shows what is booked, takes the
// passengers, contact and options under the rules of spec §5, books the
// order and pays it, then goes to the order.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useT } from './useT';
import { ApiError, call, codes, errorText, networkError } from './flight/api';
import { formatMoney } from './flight/format';
import { clearCachedSearch, readCachedSearch } from './flight/cache';
import { CheckFailed, Decision } from './confirm/Outcome';
import { Countdown, Expired, useExpiry } from './confirm/Countdown';
import { Summary } from './confirm/Summary';
import { PassengerFields, type Carrier, type OftenUsedState } from './confirm/PassengerForm';
import { BookingOptions, ContactSection } from './confirm/Extras';
import { PaymentBody, PaymentSection, canPay, defaultChannel, type PaymentState } from './confirm/Payment';
import { emptyPassenger, placeDocs, syncPassengers, travellers, tripOf, validateContact, validatePassenger } from './confirm/validate';
import { loadTravellers } from './travellers/TravellerPicker';
import { DocsImport, type DocsPassenger } from './travellers/DocsImport';
import {
  unpaidStatuses,
  type Contact,
  type InvoiceType,
  type OftenUsedPage,
  type Order,
  type OrderRequest,
  type PassengerForm,
  type PaymentConfig,
  type Verification,
} from './confirm/types';
import { Approx } from './Approx';
import { useFieldErrors } from './formParts';
import { FormError, FormErrors } from './FormErrors';
import './flight/flight.css';
import './confirm/confirm.css';
import { formField } from './fieldPath';

export type FlightConfirmProps = {
  lang?: string;
  solutionId: string;
  // currency is the agency's settlement currency now.
  currency?: string;
  // today is the server's date: birthdays may not pass it.
  today: string;
  sessionKey?: string;
  // For tests: where a link goes.
  navigate?: (url: string) => void;
};

type Check =
  | { status: 'checking' }
  | { status: 'failed'; code: number; message: string }
  | { status: 'done'; v: Verification; accepted: boolean };

export const searchPage = '/flight/booking';

// tripAirports are the airports a solution flies through, for the DOCS
// import to tell an international trip.
export function tripAirports(s: { segments?: { origin: string; destination: string }[] } | undefined): string[] {
  return Array.from(new Set((s?.segments || []).flatMap((g) => [g.origin, g.destination]).filter(Boolean)));
}
export const currencyChangedPage = '/flight/booking?error=settlementCurrency';

// newIdempotencyKey is a random UUID. crypto.randomUUID exists only on
// secure pages (HTTPS, localhost); getRandomValues everywhere.
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// passengerFields are the names a 100001 answer may give for a passenger.
const passengerFields = [
  'surname', 'givenName', 'gender', 'birthday', 'nationality', 'documentType', 'documentNumber', 'documentExpiry',
  'documentIssuedAt', 'frequentFlyer', 'ffAirline', 'phone', 'email',
];
const otherFields = ['contact.name', 'contact.email', 'contact.phone', 'invoiceType', 'remark'];

// fieldFor is the form field a server error names, or '' when it names
// none of ours. A passenger's type is set by the booking: what the user
// changes for it is the birthday.
export function fieldFor(key: string, count: number): string {
  const k = formField(key);
  if (otherFields.includes(k)) return k;
  const m = /^passengers\.(\d+)\.(\w+)$/.exec(k);
  if (!m || Number(m[1]) >= count) return '';
  if (m[2] === 'type') return `passengers.${m[1]}.birthday`;
  return passengerFields.includes(m[2]) ? `passengers.${m[1]}.${m[2]}` : '';
}

// uncertain: the call may have happened (no answer, a gateway time-out), so
// a retry must carry the same Idempotency-Key.
function uncertain(err: unknown): boolean {
  return !(err instanceof ApiError) || err.code === networkError || err.status >= 500;
}

export function FlightConfirm({ solutionId, currency = '', today, sessionKey = '', navigate = (url) => window.location.assign(url) }: FlightConfirmProps) {
  const { t, lang } = useT();
  const [check, setCheck] = useState<Check>({ status: 'checking' });
  // quote is the accepted answer of the price check: what is booked.
  const [quote, setQuote] = useState<Verification | null>(null);
  const [forms, setForms] = useState<PassengerForm[]>([]);
  const [contact, setContact] = useState<Contact>({ name: '', email: '', phone: '' });
  const [invoiceType, setInvoiceType] = useState<InvoiceType>('None');
  const [remark, setRemark] = useState('');
  const { errors, setErrors, clearError } = useFieldErrors();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [focusTick, setFocusTick] = useState(0);
  const [oftenUsed, setOftenUsed] = useState<OftenUsedState>({ status: 'loading' });
  const [payment, setPayment] = useState<PaymentState>({ status: 'loading' });
  const [channel, setChannel] = useState('');
  const [busy, setBusy] = useState<'' | 'booking' | 'paying'>('');
  const [order, setOrder] = useState<Order | null>(null);
  const [payError, setPayError] = useState('');
  const [quoteGone, setQuoteGone] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const started = useRef(false);
  const extrasLoaded = useRef(false);
  // One key for this confirmation, reused on every retry: a lost answer
  // must not book twice. The payment's key lives as long as its channel
  // and a retry of an answer that may have been lost.
  const orderKey = useRef<string | null>(null);
  const payKey = useRef<{ channel: string; key: string } | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const orderHeading = useRef<HTMLHeadingElement>(null);

  const solution = quote?.solution;
  const trip = useMemo(() => tripOf(solution), [solution]);
  const carriers = useMemo<Carrier[]>(() => {
    const seen = new Map<string, string>();
    for (const g of solution?.segments || []) {
      if (!seen.has(g.carrier)) seen.set(g.carrier, g.carrierName || g.carrier);
    }
    return Array.from(seen, ([code, name]) => ({ code, name }));
  }, [solution]);
  const { left, expired: timedOut } = useExpiry(order ? undefined : quote?.quoteExpiresAt);
  const expired = !order && (timedOut || quoteGone);

  function leaveForCurrency() {
    clearCachedSearch();
    navigate(currencyChangedPage);
  }

  async function verify() {
    setCheck({ status: 'checking' });
    setQuoteGone(false);
    try {
      const v = await call<Verification>('POST', `/shopping/v2/flight/solutions/${encodeURIComponent(solutionId)}/verification`, undefined, { lang });
      // Prices of another settlement currency than the agency's now: the
      // search is from before the change (spec §4).
      const cur = v.solution?.total?.currency;
      if (currency && cur && cur !== currency) {
        leaveForCurrency();
        return;
      }
      const accepted = v.status === 'ok';
      setCheck({ status: 'done', v, accepted });
      if (accepted) adopt(v, false);
    } catch (err) {
      const code = err instanceof ApiError ? (err.status === 404 ? codes.notFound : err.code) : networkError;
      setCheck({ status: 'failed', code, message: errorText(err, t) });
    }
  }

  // adopt makes v the quote to book; clear empties the passengers (new
  // document rules).
  function adopt(v: Verification, clear: boolean) {
    setQuote(v);
    setForms((f) => (clear ? travellers(v.solution).map(emptyPassenger) : syncPassengers(f, v.solution)));
    if (clear) {
      setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('passengers.'))));
    }
  }

  function accept() {
    if (check.status !== 'done' || !check.v.solution) return;
    adopt(check.v, check.v.status === 'document_restriction_changed');
    setCheck({ ...check, accepted: true });
  }

  function backToSearch() {
    navigate(searchPage);
  }

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The search kept by FlightSearch is in the settlement currency of its
    // time; another one now means the agency's currency changed.
    const cached = readCachedSearch();
    if (cached && currency && cached.currency && cached.currency !== currency && (!cached.sessionKey || cached.sessionKey === sessionKey)) {
      leaveForCurrency();
      return;
    }
    void verify();
    // Once, on entry.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function loadOftenUsed() {
    setOftenUsed({ status: 'loading' });
    setOftenUsed(await loadTravellers(lang, t));
  }

  // importDocs fills the passengers from a DOCS paste, each into a form of
  // its own type where there is one.
  function importDocs(ps: DocsPassenger[]) {
    const { forms: next, filled } = placeDocs(forms, ps);
    setForms(next);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !filled.some((i) => k.startsWith(`passengers.${i}.`)))));
  }

  async function loadPayment() {
    setPayment({ status: 'loading' });
    try {
      const config = await call<PaymentConfig>('GET', '/order/v2/flight/config/payment', undefined, { lang });
      const c = { ...config, channels: config?.channels || [], paymentDisabled: !!config?.paymentDisabled };
      setPayment({ status: 'ready', config: c });
      setChannel((ch) => (c.channels.some((x) => x.channel === ch) ? ch : defaultChannel(c)));
    } catch (err) {
      setPayment({ status: 'error', message: errorText(err, t) });
    }
  }

  useEffect(() => {
    if (!quote || extrasLoaded.current) return;
    extrasLoaded.current = true;
    void loadOftenUsed();
    void loadPayment();
    // Once the first quote is in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [quote]);

  // After a failed submit, the first field in error gets the focus (the
  // errors render first).
  useLayoutEffect(() => {
    if (!focusTick || !formRef.current) return;
    const el = formRef.current.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!el) return;
    const target = el.matches('input, select, textarea') ? el : el.querySelector<HTMLElement>('input, select, textarea');
    target?.focus();
  }, [focusTick]);

  useEffect(() => {
    if (order) orderHeading.current?.focus();
  }, [order]);

  function onPasteRejected(name: string) {
    const msg = t('confirm.error.pasteDate');
    setErrors((e) => ({ ...e, [name]: msg }));
    setAnnouncement('');
    // A new text each time, so the same message is read again.
    setTimeout(() => setAnnouncement(msg), 0);
  }

  function setForm(i: number, f: PassengerForm) {
    setForms((all) => all.map((x, k) => (k === i ? f : x)));
    // A form filled in one go (an often-used passenger) starts clean.
    if (f.oftenUsed !== forms[i]?.oftenUsed) {
      setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith(`passengers.${i}.`))));
    }
  }

  function request(): OrderRequest {
    return {
      quoteId: quote?.quoteId || '',
      solutionId,
      passengers: forms.map(({ key: _key, oftenUsed: _used, ...p }) => ({
        ...p,
        surname: p.surname.trim(),
        givenName: p.givenName.trim(),
        birthday: p.birthday.trim(),
        documentNumber: p.documentNumber.trim(),
        documentExpiry: p.documentExpiry.trim(),
        documentIssuedAt: p.documentIssuedAt.trim(),
        phone: p.phone.trim(),
        email: p.email.trim(),
        frequentFlyer: p.frequentFlyer.trim(),
      })),
      contact: { name: contact.name.trim(), email: contact.email.trim(), phone: contact.phone.trim() },
      invoiceType,
      remark: remark.trim(),
    };
  }

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    if (!solution || busy || order) return;
    const ctx = { today, trip, restrictions: solution.restrictions };
    const found: Record<string, string> = {};
    forms.forEach((f, i) => Object.assign(found, validatePassenger(f, i, ctx, t)));
    Object.assign(found, validateContact(contact, t));
    setErrors(found);
    const n = Object.keys(found).length;
    if (n) {
      setFormErrors([t('confirm.error.summary', { count: n })]);
      setFocusTick((x) => x + 1);
      return;
    }
    if (expired) return;
    setFormErrors([]);
    setBusy('booking');
    orderKey.current ??= newIdempotencyKey();
    let created: Order;
    try {
      created = await call<Order>('POST', '/order/v2/flight/orders', request(), { lang, headers: { 'Idempotency-Key': orderKey.current } });
    } catch (err) {
      setBusy('');
      if (err instanceof ApiError && err.code === codes.validation) {
        const fields: Record<string, string> = {};
        const rest: string[] = [];
        for (const [k, msg] of Object.entries(err.fields)) {
          const mine = fieldFor(k, forms.length);
          if (mine && !fields[mine]) fields[mine] = msg;
          else rest.push(msg);
        }
        setErrors(fields);
        const count = Object.keys(fields).length;
        setFormErrors([...(count ? [t('confirm.error.summary', { count })] : []), ...(rest.length || count ? rest : [err.message || errorText(err, t)])]);
        if (count) setFocusTick((x) => x + 1);
      } else if (err instanceof ApiError && err.code === codes.quoteExpired) {
        setQuoteGone(true);
      } else {
        setFormErrors([errorText(err, t)]);
      }
      return;
    }
    setOrder(created);
    await afterBooking(created);
  }

  // afterBooking pays the new order, unless it is not to be paid now: the
  // agency may not pay, the order waits for a review or is held.
  async function afterBooking(o: Order) {
    const payable = canPay(payment) && !!channel && !unpaidStatuses.includes(o.status) && (o.status === 'to_be_paid' || !o.status);
    if (!payable) {
      setBusy('');
      navigate(`/flight/orders/${encodeURIComponent(String(o.id))}`);
      return;
    }
    await pay(o);
  }

  async function pay(o: Order) {
    setBusy('paying');
    setPayError('');
    if (!payKey.current || payKey.current.channel !== channel) payKey.current = { channel, key: newIdempotencyKey() };
    try {
      const paid = await call<Order>('POST', `/order/v2/flight/orders/${encodeURIComponent(String(o.id))}/payment`, { channel }, {
        lang,
        headers: { 'Idempotency-Key': payKey.current.key },
      });
      setOrder(paid && typeof paid === 'object' ? { ...o, ...paid } : o);
      navigate(`/flight/orders/${encodeURIComponent(String(o.id))}`);
    } catch (err) {
      // Declined or short of funds: the next try is a new payment.
      if (!uncertain(err)) payKey.current = null;
      setPayError(errorText(err, t));
      setBusy('');
    }
  }

  const total = solution ? formatMoney(solution.total.amount, solution.total.currency) : '';
  const paying = canPay(payment);
  const showForm = check.status === 'done' && check.accepted && !!solution;
  const orderLink = order ? `/flight/orders/${encodeURIComponent(String(order.id))}` : '';

  return (
    <div className="flight-confirm">
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
      {check.status === 'checking' && (
        <p className="fc-checking" role="status">
          <span className="fc-spinner" aria-hidden="true"></span> {t('confirm.check.checking')}
        </p>
      )}
      {check.status === 'failed' && <CheckFailed code={check.code} message={check.message} onRetry={() => void verify()} onBack={backToSearch} />}
      {check.status === 'done' && !check.accepted && <Decision v={check.v} onAccept={accept} onBack={backToSearch} />}

      {showForm && solution && (
        <>
          {!order && left !== null && !expired && <Countdown left={left} />}
          {expired && <Expired onRecheck={() => void verify()} />}
          <Summary solution={solution} />
          <form className="fc-form" noValidate onSubmit={submit} aria-label={t('confirm.form.label')}>
            <div ref={formRef}>
              <fieldset className="fc-plain" disabled={!!order || busy === 'booking'}>
                <section className="fc-section" aria-labelledby="fc-passengers-title">
                  <h2 id="fc-passengers-title">{t('confirm.passengers.title')}</h2>
                  <p className="fs-hint">{t('confirm.passengers.hint')}</p>
                  <DocsImport
                    seats={forms.length}
                    limits={{ documents: solution.restrictions?.documents, airports: tripAirports(solution) }}
                    onImport={importDocs}
                  />
                  {forms.map((f, i) => (
                    <PassengerFields
                      key={f.key}
                      index={i}
                      form={f}
                      onChange={(next) => setForm(i, next)}
                      errors={errors}
                      clearError={clearError}
                      onPasteRejected={onPasteRejected}
                      restrictions={solution.restrictions}
                      carriers={carriers}
                      oftenUsed={oftenUsed}
                      takenIds={forms.filter((x, k) => k !== i && x.oftenUsed !== undefined).map((x) => x.oftenUsed as number)}
                      firstDate={trip.firstDate}
                    />
                  ))}
                </section>
                <ContactSection contact={contact} onChange={setContact} errors={errors} clearError={clearError} />
                <BookingOptions
                  solution={solution}
                  invoiceType={invoiceType}
                  onInvoiceType={setInvoiceType}
                  remark={remark}
                  onRemark={setRemark}
                  errors={errors}
                  clearError={clearError}
                />
              </fieldset>
              {!order && <PaymentSection state={payment} channel={channel} onChannel={setChannel} onRetry={() => void loadPayment()} disabled={!!busy} />}
            </div>

            {!order && (
              <div className="fc-submit">
                <FormErrors messages={formErrors} />
                <p className="fc-total-line">
                  {t('flight.price.total')}: <strong className="fc-total">{total}</strong>
                  <Approx amount={solution.total.amount} currency={solution.total.currency} />
                </p>
                <button type="submit" className="btn btn-primary" disabled={!!busy || expired || payment.status === 'loading'} aria-busy={busy ? true : undefined}>
                  {busy === 'booking' ? t('confirm.action.booking') : paying ? t('confirm.action.bookAndPay', { total }) : t('confirm.action.book')}
                </button>
                {!paying && payment.status !== 'loading' && <p className="fs-hint">{t('confirm.payment.bookOnly')}</p>}
                {expired && (
                  <p className="fc-expired-note">
                    {t('confirm.timer.expired.short')}{' '}
                    <button type="button" className="btn btn-small" onClick={() => void verify()}>
                      {t('confirm.action.recheck')}
                    </button>
                  </p>
                )}
              </div>
            )}
          </form>

          {order && (
            <section className="fc-section fc-order" aria-labelledby="fc-order-title">
              <h2 id="fc-order-title" tabIndex={-1} ref={orderHeading}>
                {t('confirm.order.created', { number: order.bookingNumber || String(order.id) })}
              </h2>
              {busy === 'paying' && (
                <p role="status" className="fc-checking">
                  <span className="fc-spinner" aria-hidden="true"></span> {t('confirm.order.paying')}
                </p>
              )}
              <FormError message={payError} />
              {payError && <p>{t('confirm.order.unpaid')}</p>}
              {payError && <PaymentBody state={payment} channel={channel} onChannel={setChannel} onRetry={() => void loadPayment()} disabled={!!busy} />}
              <p className="fc-actions">
                {payError && (
                  <button type="button" className="btn btn-primary" disabled={!!busy || !channel} onClick={() => void pay(order)}>
                    {t('confirm.action.payAgain')}
                  </button>
                )}
                <a className="btn" href={orderLink}>
                  {t('confirm.action.payLater')}
                </a>
              </p>
            </section>
          )}
        </>
      )}
    </div>
  );
}
