// TrainOrder is the actions part of /train/orders/{id}: what the order
// allows now (its actions), each through the agency API. Pay and the
// agency's confirmations carry an Idempotency-Key; a refund and a change
// are quoted first, their fee shown, and only then confirmed. After an
// action the page reloads, so the server's rendering shows the new state.
import { useRef, useState, type FormEvent } from 'react';
import { useT } from './useT';
import { call, errorText, ApiError, networkError } from './flight/api';
import { formatDuration, formatMoney, localTime } from './flight/format';
import { useExpiry } from './confirm/Countdown';
import { HoldCountdown } from './train/Booking';
import { newIdempotencyKey } from './FlightConfirm';
import { salesDates, sortSeats } from './train/results';
import { typeKey } from './train/Results';
import type { Money, Quote, SearchResult, Train } from './train/types';
import { toChina } from './train/time';
import { formatInZone } from './display';
import { FormError } from './FormErrors';
import './flight/flight.css';
import { TableHead } from './catalogParts';
import './confirm/confirm.css';
import './train/train.css';

// A passenger as the actions name them: id is the passenger's number in the
// order, which refund and change requests carry.
export type OrderPassengerRow = { id: number; name: string; refundable: boolean; changeable: boolean };

export type TrainOrderProps = {
  lang?: string;
  id: number;
  actions: string[];
  passengers: OrderPassengerRow[];
  origin: string;
  destination: string;
  today: string;
  saleDays?: number;
  holdExpiresAt?: string;
  // quote is the refund or change quote waiting for the agency.
  quote?: Quote | null;
  // For tests: what happens after an action.
  reload?: () => void;
};

const base = (id: number) => `/order/v2/train/orders/${id}`;

function uncertain(err: unknown): boolean {
  return !(err instanceof ApiError) || err.code === networkError || err.status >= 500;
}

// useAction runs one API call at a time with a key kept for retries of an
// answer that may have been lost.
function useAction(reload: () => void) {
  const { t } = useT();
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const keys = useRef<Record<string, string>>({});
  async function run<T>(name: string, fn: (key: string) => Promise<T>, after?: (v: T) => void) {
    if (busy) return;
    keys.current[name] ??= newIdempotencyKey();
    setBusy(name);
    setError('');
    setFields({});
    try {
      const v = await fn(keys.current[name]);
      delete keys.current[name];
      if (after) after(v);
      else reload();
    } catch (err) {
      if (!uncertain(err)) delete keys.current[name];
      if (err instanceof ApiError) setFields(err.fields);
      setError(errorText(err, t));
    } finally {
      setBusy('');
    }
  }
  return { busy, error, fields, run };
}

// QuoteAction shows the quote waiting (the fee before anything is
// confirmed) with its confirm and drop buttons.
function QuoteAction({ quote, actions, passengers, busy, onConfirm, onDrop }: { quote: Quote; actions: string[]; passengers: OrderPassengerRow[]; busy: string; onConfirm: () => void; onDrop: () => void }) {
  const { t } = useT();
  const refund = quote.kind === 'refund';
  const k = refund ? 'refund' : 'change';
  return (
    <section className="fc-section" aria-labelledby="to-quote">
      <h3 id="to-quote">{t(`trainportal.action.${k}.quoteTitle`)}</h3>
      <p className="tb-summary-line">
        {t('trainportal.detail.passengers')}:{' '}
        {(quote.passengers || []).map((pid) => passengers.find((p) => p.id === pid)?.name || String(pid)).join(', ')}
      </p>
      {!refund && quote.train && (
        <p className="tb-summary-line">
          <strong>{quote.train.trainNumber}</strong> {localTime(toChina(quote.train.departAt))} · {quote.seatClass ? t(`trainportal.class.${quote.seatClass}`) : ''}
        </p>
      )}
      <Quote
        rows={
          refund
            ? [['trainportal.action.refund.fee', quote.fee], ['trainportal.action.refund.amount', quote.refundAmount]]
            : [['trainportal.action.change.fee', quote.fee], ...(nonZero(quote.due) || !nonZero(quote.refundAmount) ? [['trainportal.action.change.due', quote.due] as [string, Money]] : []), ...(nonZero(quote.refundAmount) ? [['trainportal.action.change.back', quote.refundAmount] as [string, Money]] : [])]
        }
      />
      {quote.validUntil && <p className="fs-hint">{t('timezone.validUntil', { time: formatInZone(quote.validUntil) })}</p>}
      <p className="fc-actions">
        <button type="button" className="btn btn-primary" disabled={!!busy} onClick={onConfirm}>
          {t(`trainportal.action.${k}.confirm`)}
        </button>
        {(actions.includes('cancel_refund') || actions.includes('cancel_change')) && (
          <button type="button" className="btn" disabled={!!busy} onClick={onDrop}>
            {t('trainportal.action.drop')}
          </button>
        )}
      </p>
    </section>
  );
}

function nonZero(m: Money | undefined): boolean {
  return !!m && Number(m.amount) !== 0;
}

function Quote({ rows }: { rows: [string, Money | undefined][] }) {
  const { t } = useT();
  return (
    <dl className="to-quote">
      {rows
        .filter(([, m]) => m && m.amount !== undefined)
        .map(([k, m]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{t(k)}</dt>
            <dd>{formatMoney(m!.amount, m!.currency)}</dd>
          </div>
        ))}
    </dl>
  );
}

export function TrainOrder(props: TrainOrderProps) {
  const { t, lang } = useT();
  const { id, actions, passengers, reload = () => window.location.reload() } = props;
  const a = useAction(reload);
  const has = (x: string) => actions.includes(x);
  const { left, expired } = useExpiry(has('pay') ? props.holdExpiresAt : undefined);
  const [chosen, setChosen] = useState<number[]>(() => passengers.filter((p) => p.refundable).map((p) => p.id));
  const [confirmCancel, setConfirmCancel] = useState(false);

  const opts = { lang };
  const json = (method: 'POST' | 'GET', path: string, body?: unknown, key?: string) =>
    call<any>(method, path, body, key ? { ...opts, headers: { 'Idempotency-Key': key } } : opts);
  const del = (path: string) => call<any>('DELETE', path, undefined, opts);

  return (
    <div className="to-actions">
      <FormError message={a.error} />
      {has('pay') && (
        <section className="fc-section" aria-labelledby="to-pay">
          <h3 id="to-pay">{t('trainportal.action.pay.title')}</h3>
          {left !== null && !expired && <HoldCountdown left={left} />}
          {expired ? (
            <p className="fc-expired">{t('trainportal.order.holdExpired')}</p>
          ) : (
            <p className="fc-actions">
              <button type="button" className="btn btn-primary" disabled={!!a.busy} onClick={() => a.run('pay', (key) => json('POST', `${base(id)}/payment`, { channel: 'balance' }, key))}>
                {a.busy === 'pay' ? t('trainportal.order.paying') : t('trainportal.order.pay')}
              </button>
            </p>
          )}
        </section>
      )}
      {has('cancel') && (
        <section className="fc-section" aria-labelledby="to-cancel">
          <h3 id="to-cancel">{t('trainportal.action.cancel.title')}</h3>
          <label className="tb-check">
            <input type="checkbox" checked={confirmCancel} onChange={() => setConfirmCancel(!confirmCancel)} /> {t('trainportal.action.cancel.confirm')}
          </label>
          <p className="fc-actions">
            <button type="button" className="btn" disabled={!confirmCancel || !!a.busy} onClick={() => a.run('cancel', () => del(base(id)))}>
              {t('trainportal.action.cancel.submit')}
            </button>
          </p>
        </section>
      )}
      {has('refund') && (
        <section className="fc-section" aria-labelledby="to-refund">
          <h3 id="to-refund">{t('trainportal.action.refund.title')}</h3>
          <fieldset className="fc-plain tb-who">
            <legend>{t('trainportal.action.refund.who')}</legend>
            {passengers.map((p) => (
              <label key={p.id} className="tb-check">
                <input
                  type="checkbox"
                  disabled={!p.refundable}
                  checked={chosen.includes(p.id)}
                  onChange={() => setChosen(chosen.includes(p.id) ? chosen.filter((x) => x !== p.id) : [...chosen, p.id].sort())}
                />{' '}
                {p.name}
              </label>
            ))}
          </fieldset>
          <p className="fs-hint">{t('trainportal.action.refund.hint')}</p>
          <p className="fc-actions">
            <button
              type="button"
              className="btn"
              disabled={!chosen.length || !!a.busy}
              onClick={() => a.run('refund', (key) => json('POST', `${base(id)}/refund`, { passengers: chosen }, key))}
            >
              {t('trainportal.action.refund.quote')}
            </button>
          </p>
        </section>
      )}
      {has('change') && <ChangeAction {...props} run={a.run} busy={a.busy} json={json} />}
      {props.quote && has('confirm') && <QuoteAction quote={props.quote} actions={actions} passengers={passengers} busy={a.busy} onConfirm={() => a.run('confirm', (key) => json('POST', `${base(id)}/confirmation`, undefined, key))} onDrop={() => a.run('drop', () => del(`${base(id)}/quote`))} />}
      {has('confirm_tickets') && <ConfirmTickets {...props} run={a.run} busy={a.busy} json={json} fields={a.fields} />}
    </div>
  );
}

type Inner = TrainOrderProps & {
  run: ReturnType<typeof useAction>['run'];
  busy: string;
  json: (method: 'POST' | 'GET', path: string, body?: unknown, key?: string) => Promise<any>;
};

// ChangeAction searches the same route on another on-sale date and quotes
// the move of the chosen passengers to the chosen train and class.
function ChangeAction({ id, origin, destination, today, saleDays = 15, passengers, run, busy, json }: Inner) {
  const { t, lang } = useT();
  const dates = salesDates(today, saleDays);
  const [date, setDate] = useState(dates[0]);
  const [trains, setTrains] = useState<Train[] | null>(null);
  const [error, setError] = useState('');
  const who = passengers.filter((p) => p.changeable).map((p) => p.id);

  async function search(ev: FormEvent) {
    ev.preventDefault();
    setError('');
    try {
      const r = await call<SearchResult>('POST', '/shopping/v2/train/search', { origin, destination, date, passengers: { adult: Math.max(1, who.length), child: 0 } }, { lang });
      setTrains(r?.items || []);
    } catch (err) {
      setTrains(null);
      setError(errorText(err, t));
    }
  }

  return (
    <section className="fc-section" aria-labelledby="to-change">
      <h3 id="to-change">{t('trainportal.action.change.title')}</h3>
      <p className="fs-hint">{t('trainportal.action.change.hint')}</p>
      <form className="fs-form-bottom" onSubmit={search}>
        <div className="fs-field fs-date">
          <label htmlFor="to-change-date">{t('trainportal.search.date')}</label>
          <select id="to-change-date" className="fs-input" value={date} onChange={(ev) => setDate(ev.target.value)}>
            {dates.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
        <div className="fs-submit">
          <button type="submit" className="btn">
            {t('trainportal.action.change.search')}
          </button>
        </div>
      </form>
      <FormError message={error} />
      {trains && trains.length === 0 && <p className="empty-state">{t('portal.train.booking.empty')}</p>}
      {trains && trains.length > 0 && (
        <ul className="tb-trains">
          {trains.map((tr) => (
            <li key={tr.id} className="tb-train">
              <p className="tb-summary-line">
                <strong>{tr.trainNumber}</strong> {t(typeKey(tr.trainType))} · {localTime(toChina(tr.departAt))} → {localTime(toChina(tr.arriveAt))} · {formatDuration(tr.durationMinutes)}
              </p>
              <ul className="tb-seats">
                {sortSeats(tr.seats || []).map((s) => (
                  <li key={s.class} className={s.available > 0 ? 'tb-seat' : 'tb-seat is-sold-out'}>
                    <span className="tb-seat-class">{t(`trainportal.class.${s.class}`)}</span>
                    <span className="tb-seat-price">{formatMoney(s.price?.amount, s.price?.currency)}</span>
                    <span className="tb-seat-left">{s.available > 0 ? t('trainportal.results.left', { count: s.available }) : t('trainportal.results.soldOut')}</span>
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={!(s.available > 0) || !!busy}
                      aria-label={t('trainportal.action.change.chooseLabel', { train: tr.trainNumber, seatClass: t(`trainportal.class.${s.class}`) })}
                      onClick={() => run('change', (key) => json('POST', `${base(id)}/change`, { offerId: tr.id, seatClass: s.class, passengers: who }, key))}
                    >
                      {t('trainportal.action.change.choose')}
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// TypedTicket is a ticket the provider types by hand for one passenger.
type TypedTicket = { passengerId: number; coach: string; seat: string; ticketNumber: string };

// ConfirmTickets is the provider's decision on a paid order in manual
// mode (or one the background ticketing gave up on): issue the tickets
// from the railway (or as typed by hand, one per passenger), or refuse
// them with the money back.
function ConfirmTickets({ id, actions, passengers, run, busy, json, fields }: Inner & { fields: Record<string, string> }) {
  const { t } = useT();
  const [remark, setRemark] = useState('');
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState<TypedTicket[]>(() => passengers.map((p) => ({ passengerId: p.id, coach: '', seat: '', ticketNumber: '' })));
  const edit = (i: number, k: 'coach' | 'seat' | 'ticketNumber', v: string) => setTyped((ts) => ts.map((tk, j) => (j === i ? { ...tk, [k]: v } : tk)));
  const issue = () => {
    const body: { remark: string; tickets?: TypedTicket[] } = { remark: remark.trim() };
    if (typing) body.tickets = typed.map((tk) => ({ ...tk, coach: tk.coach.trim(), seat: tk.seat.trim(), ticketNumber: tk.ticketNumber.trim() }));
    return run('confirm_tickets', (key) => json('POST', `${base(id)}/tickets`, body, key));
  };
  return (
    <section className="fc-section" aria-labelledby="to-tickets">
      <h3 id="to-tickets">{t('trainportal.action.tickets.title')}</h3>
      <p className="fs-hint">{t('trainportal.action.tickets.hint')}</p>
      <div className="fs-field">
        <label>
          <input type="checkbox" checked={typing} onChange={(ev) => setTyping(ev.target.checked)} /> {t('trainportal.action.tickets.typed')}
        </label>
        {!typing && <p className="fs-hint">{t('trainportal.action.tickets.typedHint')}</p>}
      </div>
      {typing && (
        <table className="to-typed">
          <TableHead columns={['trainportal.action.tickets.passenger', 'trainportal.action.tickets.coach', 'trainportal.action.tickets.seat', 'trainportal.action.tickets.number']} />
          <tbody>
            {typed.map((tk, i) => {
              const name = passengers[i]?.name || String(tk.passengerId);
              const cell = (k: 'coach' | 'seat' | 'ticketNumber', label: string, max: number) => {
                const msg = fields[`tickets[${i}].${k}`];
                const errId = `to-typed-${i}-${k}-error`;
                return (
                  <td>
                    <input className="fs-input" aria-label={`${label} · ${name}`} maxLength={max} value={tk[k]} aria-invalid={msg ? true : undefined} aria-describedby={msg ? errId : undefined} onChange={(ev) => edit(i, k, ev.target.value)} />
                    {msg && (
                      <span id={errId} className="field-error">
                        {msg}
                      </span>
                    )}
                  </td>
                );
              };
              return (
                <tr key={tk.passengerId}>
                  <th scope="row">{name}</th>
                  {cell('coach', t('trainportal.action.tickets.coach'), 2)}
                  {cell('seat', t('trainportal.action.tickets.seat'), 12)}
                  {cell('ticketNumber', t('trainportal.action.tickets.number'), 20)}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="fs-field">
        <label htmlFor="to-tickets-remark">{t('trainportal.action.tickets.remark')}</label>
        <input id="to-tickets-remark" className="fs-input" maxLength={200} value={remark} onChange={(ev) => setRemark(ev.target.value)} />
      </div>
      <p className="fc-actions">
        <button type="button" className="btn btn-primary" disabled={!!busy} onClick={issue}>
          {t('trainportal.action.tickets.submit')}
        </button>
        {actions.includes('fail_tickets') && (
          <button type="button" className="btn" disabled={!!busy} onClick={() => run('fail_tickets', (key) => json('POST', `${base(id)}/tickets`, { fail: true, remark: remark.trim() }, key))}>
            {t('trainportal.action.tickets.fail')}
          </button>
        )}
      </p>
    </section>
  );
}
