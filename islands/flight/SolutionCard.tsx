// SolutionCard shows one priced itinerary: per journey the local departure
// and arrival times, airports, duration, stops and flights; then baggage,
// fare brand, ticketing speed, conditions, self-transfer protection, the
// total price with its breakdown, and the Select button.
import { useId } from 'react';
import { useT } from '../useT';
import { dayOffset, formatDuration, formatMoney, localDate, localTime, weekday } from './format';
import { Approx } from '../Approx';
import { PriceDetail, tOr } from './PriceDetail';
import type { BookingType, Journey, Segment, Solution } from './types';

type T = (k: string, o?: Record<string, unknown>) => string;

export type SolutionCardProps = {
  solution: Solution;
  bookingType: BookingType | null;
  disabled?: boolean;
  onSelect: (s: Solution) => void;
  // skip hides the first journeys: another fare of a group whose card above
  // already shows them (the same outbound).
  skip?: number;
};

function journeyTitle(t: T, bookingType: BookingType | null, count: number, i: number): string {
  if (count === 1) return t('flight.journey.depart');
  if (bookingType === 'return' && count === 2) return i === 0 ? t('flight.journey.outbound') : t('flight.journey.inbound');
  return t('flight.trip.flightN', { n: i + 1 });
}

function segmentsOf(s: Solution, j: Journey): Segment[] {
  return (j.segments || []).map((i) => s.segments[i]).filter(Boolean);
}

// layover is the minutes between landing and the next take-off at the same
// airport (both stamps carry that airport's offset).
function layover(a: Segment, b: Segment): number {
  const m = (Date.parse(b.departAt) - Date.parse(a.arriveAt)) / 60_000;
  return Number.isFinite(m) && m > 0 ? m : 0;
}

function unique<T>(xs: T[]): T[] {
  return Array.from(new Set(xs));
}

export function SolutionCard({ solution: s, bookingType, disabled, onSelect, skip = 0 }: SolutionCardProps) {
  const { t, lang } = useT();
  const titleId = useId();
  const carriers = unique(s.segments.map((g) => g.carrierName || g.carrier));
  const flights = s.segments.map((g) => g.flightNumber).join(' / ');
  const selfTransfer = s.selfTransfer || s.journeys.some((j) => j.selfTransfer);
  const price = formatMoney(s.total.amount, s.total.currency);
  const travellers = (s.priceDetail?.priceList || []).reduce((n, l) => n + (l.count || 0), 0);
  return (
    <article className={skip ? 'fs-card fs-card-alt' : 'fs-card'} aria-labelledby={titleId} data-solution-id={s.id}>
      <h3 className="visually-hidden" id={titleId}>
        {t('flight.card.title', { carriers: carriers.join(', '), flights, price })}
      </h3>
      <div className="fs-card-main">
        {s.journeys.map((j, i) => {
          if (i < skip) return null;
          const segs = segmentsOf(s, j);
          const a = segs[0];
          const z = segs[segs.length - 1];
          const departAt = j.departAt || a?.departAt;
          const arriveAt = j.arriveAt || z?.arriveAt;
          const plus = dayOffset(departAt, arriveAt);
          const connections = segs.slice(0, -1).map((g, k) => ({ code: g.destination, name: g.destinationName, wait: layover(g, segs[k + 1]) }));
          const date = localDate(departAt);
          return (
            <section className="fs-journey" key={i} aria-label={journeyTitle(t, bookingType, s.journeys.length, i)}>
              <div className="fs-journey-row">
                <p className="fs-journey-head">
                  <span className="fs-journey-title">{journeyTitle(t, bookingType, s.journeys.length, i)}</span>
                  <span className="fs-journey-date">
                    {date} {weekday(date, lang)}
                  </span>
                </p>
                <div className="fs-end">
                  <span className="fs-end-line">
                    <span className="fs-time">{localTime(departAt)}</span> <span className="fs-airport-code">{j.origin || a?.origin}</span>
                  </span>
                  <span className="fs-airport-name" title={a?.originName}>
                    {a?.originName}
                  </span>
                </div>
                <div className="fs-path">
                  <span className="fs-duration">{formatDuration(j.durationMinutes)}</span>
                  <span className="fs-line" aria-hidden="true"></span>
                  <span className={j.stops ? 'fs-stops' : 'fs-stops fs-nonstop'}>
                    {j.stops ? t('flight.stops.count', { count: j.stops }) : t('flight.stops.nonstop')}
                    {connections.map((c) => (
                      <span key={c.code} className="fs-via" title={c.name}>
                        {' '}
                        {t('flight.stops.via', { code: c.code })}
                        {c.wait ? ` (${formatDuration(c.wait)})` : ''}
                      </span>
                    ))}
                  </span>
                </div>
                <div className="fs-end fs-end-arrive">
                  <span className="fs-end-line">
                    <span className="fs-time">
                      {localTime(arriveAt)}
                      {plus !== 0 && (
                        <>
                          <sup className="fs-plus" aria-hidden="true">
                            {plus > 0 ? `+${plus}` : plus}
                          </sup>
                          <span className="visually-hidden"> {t('flight.journey.dayOffset', { n: plus > 0 ? `+${plus}` : String(plus) })}</span>
                        </>
                      )}
                    </span>{' '}
                    <span className="fs-airport-code">{j.destination || z?.destination}</span>
                  </span>
                  <span className="fs-airport-name" title={z?.destinationName}>
                    {z?.destinationName}
                  </span>
                </div>
              </div>
              <ul className="fs-segments">
                {segs.map((g, k) => (
                  <li key={k} title={g.aircraft || undefined}>
                    <span className="fs-carrier">{g.carrierName || g.carrier}</span> <span className="fs-flightno">{g.flightNumber}</span>
                    {g.cabin ? ` · ${tOr(t, `flight.cabin.${g.cabin}`, g.cabin)}` : ''}
                    {g.bookingClass ? ` (${g.bookingClass})` : ''}
                    {g.operatingCarrier && g.operatingCarrier !== g.carrier ? ` · ${t('flight.card.operatedBy', { carrier: g.operatingCarrier })}` : ''}
                    {g.seatsLeft && g.seatsLeft > 0 && g.seatsLeft < 10 ? (
                      <span className="fs-seats"> · {t('flight.card.seatsLeft', { count: g.seatsLeft })}</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
        <ul className="fs-tags">
          <li>{baggageText(t, s)}</li>
          {s.brand && <li>{t('flight.card.brand', { brand: s.brand })}</li>}
          {s.ticketingSpeed && <li>{tOr(t, `flight.speed.${s.ticketingSpeed}`, s.ticketingSpeed)}</li>}
          {s.conditions && (
            <li>
              {s.conditions.refundable ? t('flight.card.refundable') : t('flight.card.nonRefundable')}
              {' · '}
              {s.conditions.changeable ? t('flight.card.changeable') : t('flight.card.nonChangeable')}
            </li>
          )}
        </ul>
        {selfTransfer && (
          <details className="fs-self-transfer">
            <summary>
              <span className="fs-badge fs-badge-warn">{t('flight.card.selfTransfer')}</span> {t('flight.card.protection')}
            </summary>
            <p>{s.protection || t('flight.card.selfTransferNote')}</p>
          </details>
        )}
      </div>
      <div className="fs-card-side">
        <p className="fs-price">
          <span className="fs-price-amount">{price}</span>
          <Approx amount={s.total.amount} currency={s.total.currency} className="fs-price-approx" />
          <span className="fs-price-note">{travellers > 1 ? t('flight.price.totalFor', { count: travellers }) : t('flight.price.total')}</span>
        </p>
        <button
          type="button"
          className="btn btn-primary fs-select"
          disabled={disabled}
          aria-label={t('flight.card.selectLabel', { flights, price })}
          onClick={() => onSelect(s)}
        >
          {t('flight.card.select')}
        </button>
        <PriceDetail solution={s} />
        {s.source === 'interline' && <span className="fs-badge">{t('flight.card.interline')}</span>}
      </div>
    </article>
  );
}

// baggageText sums up the free baggage of a solution in one line.
export function baggageText(t: T, s: Pick<Solution, 'baggage'>): string {
  const b = s.baggage;
  if (!b) return t('flight.baggage.unknown');
  // An allowance by weight alone (China's domestic fares: 20 or 40 kg, no
  // piece count) is an allowance, not "no checked bag".
  const checked = b.checkedPieces
    ? b.checkedKg
      ? t('flight.baggage.checkedKg', { pieces: b.checkedPieces, kg: b.checkedKg })
      : t('flight.baggage.checked', { pieces: b.checkedPieces })
    : b.checkedKg
      ? t('flight.baggage.checkedWeight', { kg: b.checkedKg })
      : t('flight.baggage.noChecked');
  const cabin = b.cabinPieces
    ? b.cabinKg
      ? t('flight.baggage.cabinKg', { pieces: b.cabinPieces, kg: b.cabinKg })
      : t('flight.baggage.cabin', { pieces: b.cabinPieces })
    : b.cabinKg
      ? t('flight.baggage.cabinWeight', { kg: b.cabinKg })
      : '';
  return cabin ? `${checked} · ${cabin}` : checked;
}
