// Booking takes the travellers of the chosen train and seat class, creates
// the order (it holds the seats until holdExpiresAt, shown as a live
// countdown), pays it from the wallet and follows it to its tickets.
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useT } from '../useT';
import { ApiError, call, errorText, networkError } from '../flight/api';
import { formatDuration, formatMoney, localDate, localTime } from '../flight/format';
import { Countdown, useExpiry } from '../confirm/Countdown';
import { TextField } from '../confirm/fields';
import { newIdempotencyKey } from '../FlightConfirm';
import { PassengerFields } from './PassengerFields';
import { passengersFor, serverField, validateContact, validatePassenger } from './form';
import { hasSeatChoice } from './results';
import { typeKey } from './Results';
import { toChina } from './time';
import { loadTravellers, type TravellersState } from '../travellers/TravellerPicker';
import { pendingStatuses, type Contact, type PassengerForm, type Seat, type Train, type TrainOrder } from './types';
import { Approx } from '../Approx';
import { TableHead } from '../catalogParts';
import { FormError } from '../FormErrors';

type Props = {
  train: Train;
  seat: Seat;
  adult: number;
  child: number;
  today: string;
  onBack: () => void;
  pollMs?: number;
};

export const orderHref = (id: number) => `/train/orders/${id}`;

const defaultLetters: Record<string, string[]> = { second: ['A', 'B', 'C', 'D', 'F'], first: ['A', 'C', 'D', 'F'], business: ['A', 'C', 'F'], premium: ['A', 'C', 'F'] };

// seatLettersFor: what a traveller may ask for in this class of this train.
export function seatLettersFor(train: Train, seat: Seat): string[] {
  if (!hasSeatChoice(train.trainType, seat.class)) return [];
  return seat.seatLetters?.length ? seat.seatLetters : defaultLetters[seat.class] || [];
}

// uncertain: the call may have happened, so a retry carries the same key.
function uncertain(err: unknown): boolean {
  return !(err instanceof ApiError) || err.code === networkError || err.status >= 500;
}

export function Booking({ train, seat, adult, child, today, onBack, pollMs = 1000 }: Props) {
  const { t, lang } = useT();
  const [forms, setForms] = useState<PassengerForm[]>(() => passengersFor(adult, child));
  // The agency's saved travellers, loaded once for every passenger, and the
  // one each passenger (by its key) was filled from.
  const [travellers, setTravellers] = useState<TravellersState>({ status: 'loading' });
  const [picked, setPicked] = useState<Record<number, number | undefined>>({});
  const [contact, setContact] = useState<Contact>({ name: '', email: '', phone: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState<'' | 'booking' | 'paying' | 'cancelling'>('');
  const [order, setOrder] = useState<TrainOrder | null>(null);
  const [payError, setPayError] = useState('');
  const [focusTick, setFocusTick] = useState(0);
  const orderKey = useRef<string | null>(null);
  const payKey = useRef<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const orderHeading = useRef<HTMLHeadingElement>(null);
  const letters = seatLettersFor(train, seat);
  const holding = order?.status === 'to_be_paid';
  const { left, expired } = useExpiry(holding ? order?.holdExpiresAt : undefined);

  useLayoutEffect(() => {
    if (!focusTick || !formRef.current) return;
    formRef.current.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusTick]);

  useEffect(() => {
    let live = true;
    void loadTravellers(lang, t).then((s) => live && setTravellers(s));
    return () => {
      live = false;
    };
    // Once per booking form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (order) orderHeading.current?.focus();
  }, [order?.id]);

  // Ticketing runs in the background: follow the order until it leaves
  // proceeding.
  useEffect(() => {
    if (!order || !pendingStatuses.includes(order.status)) return;
    const timer = setTimeout(async () => {
      try {
        setOrder(await call<TrainOrder>('GET', `/order/v2/train/orders/${order.id}`, undefined, { lang }));
      } catch {
        setOrder({ ...order });
      }
    }, pollMs);
    return () => clearTimeout(timer);
  }, [order, lang, pollMs]);

  function translated(keys: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, t(v)]));
  }

  async function book(ev: FormEvent) {
    ev.preventDefault();
    if (busy) return;
    let e: Record<string, string> = {};
    forms.forEach((p, i) => Object.assign(e, validatePassenger(p, i, today)));
    Object.assign(e, validateContact(contact));
    e = translated(e);
    setErrors(e);
    setFormError('');
    if (Object.keys(e).length) {
      setFormError(t('trainportal.error.fix'));
      setFocusTick((n) => n + 1);
      return;
    }
    orderKey.current ??= newIdempotencyKey();
    setBusy('booking');
    try {
      const body = {
        offerId: train.id,
        seatClass: seat.class,
        passengers: forms.map((p) => ({
          type: p.type,
          surname: p.surname.trim(),
          givenName: p.givenName.trim(),
          gender: p.gender,
          birthday: p.birthday,
          nationality: p.nationality,
          documentType: p.documentType,
          documentNumber: p.documentNumber.trim(),
          ...(letters.length && p.seatLetter ? { seatLetter: p.seatLetter } : {}),
        })),
        contact: { name: contact.name.trim(), email: contact.email.trim(), phone: contact.phone.trim() },
      };
      const o = await call<TrainOrder>('POST', '/order/v2/train/orders', body, { lang, headers: { 'Idempotency-Key': orderKey.current } });
      setOrder(o);
    } catch (err) {
      if (!uncertain(err)) orderKey.current = null;
      if (err instanceof ApiError && err.fields && Object.keys(err.fields).length) {
        const fe: Record<string, string> = {};
        const rest: string[] = [];
        for (const [k, msg] of Object.entries(err.fields)) {
          const name = serverField(k, forms.length);
          if (name) fe[name] = msg;
          else rest.push(msg);
        }
        setErrors(fe);
        setFormError(rest.length ? rest.join(' ') : err.message || t('trainportal.error.fix'));
        setFocusTick((n) => n + 1);
      } else {
        setFormError(errorText(err, t));
      }
    } finally {
      setBusy('');
    }
  }

  async function pay() {
    if (!order || busy) return;
    payKey.current ??= newIdempotencyKey();
    setBusy('paying');
    setPayError('');
    try {
      const o = await call<TrainOrder>('POST', `/order/v2/train/orders/${order.id}/payment`, { channel: 'balance' }, { lang, headers: { 'Idempotency-Key': payKey.current } });
      setOrder(o);
    } catch (err) {
      if (!uncertain(err)) payKey.current = null;
      setPayError(errorText(err, t));
    } finally {
      setBusy('');
    }
  }

  if (order) {
    const issued = order.status === 'issued';
    return (
      <section className="fc-section tb-order" aria-labelledby="tb-order-title">
        <h2 id="tb-order-title" tabIndex={-1} ref={orderHeading}>
          {t('trainportal.order.title', { number: order.bookingNumber })}
        </h2>
        <p className="tb-summary-line">
          <strong>{train.trainNumber}</strong> · {localDate(toChina(train.departAt))} {localTime(toChina(train.departAt))} {train.originName || train.origin} →{' '}
          {localTime(toChina(train.arriveAt))} {train.destinationName || train.destination} · {t(`trainportal.class.${seat.class}`)}
        </p>
        <p className="tb-status">
          {t('trainportal.order.status')}: <strong data-status={order.status}>{t(`trainportal.status.${order.status}`)}</strong>
        </p>
        {order.total && (
          <p>
            {t('trainportal.order.total')}: <strong>{formatMoney(order.total.amount, order.total.currency)}</strong>
            <Approx amount={order.total.amount} currency={order.total.currency} />
          </p>
        )}
        {holding && !expired && left !== null && <HoldCountdown left={left} />}
        {holding && expired && (
          <p className="fc-expired" role="alert">
            {t('trainportal.order.holdExpired')}
          </p>
        )}
        {holding && !expired && (
          <div className="fc-actions">
            <button type="button" className="btn btn-primary" onClick={pay} disabled={!!busy}>
              {busy === 'paying' ? t('trainportal.order.paying') : t('trainportal.order.pay')}
            </button>
            <span className="fs-hint">{t('trainportal.order.payHint')}</span>
          </div>
        )}
        <FormError message={payError} />
        {pendingStatuses.includes(order.status) && (
          <p className="fc-checking" role="status">
            <span className="fc-spinner" aria-hidden="true" /> {t('trainportal.order.ticketing')}
          </p>
        )}
        {issued && order.tickets && order.tickets.length > 0 && (
          <table className="fc-table tb-tickets">
            <TableHead columns={['trainportal.ticket.passenger', 'trainportal.ticket.coach', 'trainportal.ticket.seat', 'trainportal.ticket.number']} />
            <tbody>
              {order.tickets.filter((tk) => !tk.status || tk.status === 'issued').map((tk) => {
                const p = order.passengers?.find((x) => x.id === tk.passenger);
                return (
                  <tr key={`${tk.passenger}-${tk.ticketNumber}`}>
                    <td>{tk.passengerName || (p ? `${p.surname} ${p.givenName}` : tk.passenger)}</td>
                    <td>{tk.coach}</td>
                    <td>{tk.seat}</td>
                    <td>{tk.ticketNumber}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <p>
          <a className="btn" href={orderHref(order.id)}>
            {t('trainportal.order.view')}
          </a>
        </p>
      </section>
    );
  }

  return (
    <form className="fc-form tb-booking" ref={formRef} onSubmit={book} noValidate>
      <section className="fc-section tb-summary" aria-labelledby="tb-summary-title">
        <h2 id="tb-summary-title">{t('trainportal.booking.title')}</h2>
        <p className="tb-summary-line">
          <strong>{train.trainNumber}</strong> {t(typeKey(train.trainType))} · {localDate(toChina(train.departAt))} {localTime(toChina(train.departAt))} {train.originName || train.origin} →{' '}
          {localTime(toChina(train.arriveAt))} {train.destinationName || train.destination} · {formatDuration(train.durationMinutes)}
        </p>
        <p className="tb-summary-line">
          {t(`trainportal.class.${seat.class}`)} · {formatMoney(seat.price?.amount, seat.price?.currency)} {t('trainportal.booking.perAdult')}
        </p>
        <p>
          <button type="button" className="fs-link" onClick={onBack}>
            {t('trainportal.booking.back')}
          </button>
        </p>
      </section>
      {forms.map((p, i) => (
        <PassengerFields
          key={p.key}
          index={i}
          form={p}
          letters={letters}
          errors={errors}
          onChange={(np) => setForms((fs) => fs.map((x, j) => (j === i ? np : x)))}
          travellers={travellers}
          picked={picked[p.key]}
          takenIds={Object.entries(picked).flatMap(([k, id]) => (id !== undefined && Number(k) !== p.key ? [id] : []))}
          onPick={(id) => setPicked((m) => ({ ...m, [p.key]: id }))}
        />
      ))}
      <fieldset className="fc-section">
        <legend className="tb-legend">{t('trainportal.contact.title')}</legend>
        <div className="fc-grid">
          <TextField name="contact.name" label={t('trainportal.contact.name')} value={contact.name} onChange={(v) => setContact({ ...contact, name: v })} error={errors['contact.name']} required maxLength={50} />
          <TextField name="contact.phone" type="tel" label={t('trainportal.contact.phone')} value={contact.phone} onChange={(v) => setContact({ ...contact, phone: v })} error={errors['contact.phone']} required maxLength={20} />
          <TextField name="contact.email" type="email" label={t('trainportal.contact.email')} value={contact.email} onChange={(v) => setContact({ ...contact, email: v })} error={errors['contact.email']} maxLength={100} />
        </div>
      </fieldset>
      <FormError message={formError} />
      <p className="fc-actions">
        <button type="submit" className="btn btn-primary" disabled={!!busy}>
          {busy === 'booking' ? t('trainportal.booking.submitting') : t('trainportal.booking.submit')}
        </button>
      </p>
    </form>
  );
}

// HoldCountdown is the time the railway holds the seats: after it the
// booking lapses and its seats go back on sale.
export function HoldCountdown({ left }: { left: number }) {
  return <Countdown left={left} label="trainportal.order.holdLeft" lastMinute="trainportal.order.holdLastMinute" />;
}
