// Summary is what is being booked: each journey's flights with local times,
// the baggage and fare conditions, and the price per passenger type with
// the total (spec §3 Solution priceDetail).
import { useT } from '../useT';
import { dayOffset, formatAmount, formatDuration, formatMoney, localDate, localTime, weekday } from '../flight/format';
import { PriceLinesTable, tOr } from '../flight/PriceDetail';
import { baggageText } from '../flight/SolutionCard';
import type { Journey, Segment } from '../flight/types';
import type { ConfirmSolution } from './types';
import type { T } from './validate';
import { TableHead } from '../catalogParts';

function journeyTitle(t: T, js: Journey[], i: number): string {
  if (js.length === 1) return t('flight.journey.depart');
  // Two journeys that end where the other starts are a return.
  if (js.length === 2 && js[0].origin === js[1].destination && js[0].destination === js[1].origin) {
    return i === 0 ? t('flight.journey.outbound') : t('flight.journey.inbound');
  }
  return t('flight.trip.flightN', { n: i + 1 });
}

function segmentsOf(s: ConfirmSolution, j: Journey): Segment[] {
  return (j.segments || []).map((i) => s.segments[i]).filter(Boolean);
}

// journeysOf are the solution's journeys, or one journey of every flight
// when the answer has none.
function journeysOf(s: ConfirmSolution): Journey[] {
  if (s.journeys?.length) return s.journeys;
  const a = s.segments[0];
  const z = s.segments[s.segments.length - 1];
  if (!a) return [];
  return [{ segments: s.segments.map((_, i) => i), origin: a.origin, destination: z.destination, departAt: a.departAt, arriveAt: z.arriveAt, durationMinutes: 0, stops: s.segments.length - 1 }];
}

function when(t: T, stamp: string, from?: string): string {
  const plus = from ? dayOffset(from, stamp) : 0;
  const extra = plus ? ` ${t('flight.journey.dayOffset', { n: plus > 0 ? `+${plus}` : String(plus) })}` : '';
  return `${localDate(stamp)} ${localTime(stamp)}${extra}`;
}

export function Summary({ solution: s }: { solution: ConfirmSolution }) {
  const { t, lang } = useT();
  const journeys = journeysOf(s);
  return (
    <section className="fc-section fc-summary" aria-labelledby="fc-summary-title">
      <h2 id="fc-summary-title">{t('confirm.summary.title')}</h2>
      {journeys.map((j, i) => {
        const segs = segmentsOf(s, j);
        const date = localDate(j.departAt || segs[0]?.departAt);
        return (
          <div className="fc-journey" key={i}>
            <h3 className="fc-journey-title">
              {journeyTitle(t, journeys, i)}: {j.origin} → {j.destination}
              <span className="fc-journey-date">
                {' '}
                {date} {weekday(date, lang)}
                {j.durationMinutes ? ` · ${formatDuration(j.durationMinutes)}` : ''}
                {' · '}
                {j.stops ? t('flight.stops.count', { count: j.stops }) : t('flight.stops.nonstop')}
              </span>
            </h3>
            <div className="fc-table-wrap">
              <table className="fc-table">
                <TableHead columns={['confirm.summary.flight', 'confirm.summary.from', 'confirm.summary.departs', 'confirm.summary.to', 'confirm.summary.arrives', 'confirm.summary.cabin']} />
                <tbody>
                  {segs.map((g, k) => (
                    <tr key={k}>
                      <th scope="row">
                        {g.flightNumber}
                        <span className="fc-sub">{g.carrierName || g.carrier}</span>
                        {g.operatingCarrier && g.operatingCarrier !== g.carrier ? (
                          <span className="fc-sub">{t('flight.card.operatedBy', { carrier: g.operatingCarrier })}</span>
                        ) : null}
                      </th>
                      <td>
                        {g.origin}
                        <span className="fc-sub">{g.originName}</span>
                      </td>
                      <td>{when(t, g.departAt)}</td>
                      <td>
                        {g.destination}
                        <span className="fc-sub">{g.destinationName}</span>
                      </td>
                      <td>{when(t, g.arriveAt, g.departAt)}</td>
                      <td>
                        {g.cabin ? tOr(t, `flight.cabin.${g.cabin}`, g.cabin) : ''}
                        {g.bookingClass ? ` (${g.bookingClass})` : ''}
                        {g.durationMinutes ? <span className="fc-sub">{formatDuration(g.durationMinutes)}</span> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        );
      })}
      <Package solution={s} />
      <PriceTable solution={s} />
    </section>
  );
}

// Package is the baggage and the fare's conditions: what a package change
// changes.
export function Package({ solution: s }: { solution: ConfirmSolution }) {
  const { t } = useT();
  const c = s.conditions;
  const fee = (m?: { amount: string; currency: string }) => (m && m.amount && Number(m.amount) > 0 ? ` (${t('confirm.conditions.fee', { fee: formatMoney(m.amount, m.currency) })})` : '');
  return (
    <ul className="fs-tags fc-package">
      <li>{baggageText(t, s)}</li>
      {s.brand && <li>{t('flight.card.brand', { brand: s.brand })}</li>}
      {c && (
        <>
          <li>{c.refundable ? `${t('flight.card.refundable')}${fee(c.refundFee)}` : t('flight.card.nonRefundable')}</li>
          <li>{c.changeable ? `${t('flight.card.changeable')}${fee(c.changeFee)}` : t('flight.card.nonChangeable')}</li>
        </>
      )}
      {s.ticketingSpeed && <li>{tOr(t, `flight.speed.${s.ticketingSpeed}`, s.ticketingSpeed)}</li>}
    </ul>
  );
}

// PriceTable is the same breakdown the results show: fare + taxes (+ the
// service fee) per person, × number = subtotal, adding up to the total.
export function PriceTable({ solution: s }: { solution: ConfirmSolution }) {
  return (
    <div className="fc-table-wrap">
      <PriceLinesTable solution={s} className="fs-price-table fc-price-table" />
    </div>
  );
}

// times multiplies a decimal string by a count without floating point:
// "1234.50" × 2 → "2469.00".
export function times(amount: string | undefined, n: number): string {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec((amount || '').trim());
  if (!m) return amount || '';
  const frac = (m[3] || '').padEnd(2, '0');
  const scale = BigInt(10) ** BigInt(frac.length);
  const units = BigInt((m[2] || '0') + frac) * BigInt(n);
  const int = units / scale;
  const rest = (units % scale).toString().padStart(frac.length, '0');
  return `${m[1]}${int}.${rest}`;
}
