// Price lines of a solution as the results and the confirm page show them:
// per passenger type the fare, the taxes, the agency's service fee (the
// markup, when there is one), the price per person and the subtotal for
// everyone of that type. Fare + taxes + service fee = price per person;
// price per person × number = subtotal; the subtotals add up to the total.
// Decimal strings, counted in integers, so nothing picks up float rounding.
import type { PriceLine, Solution } from './types';

export type PriceRow = {
  passengerType: string;
  count: number;
  fare: string;
  taxes: string;
  fee: string;
  perPerson: string;
  subtotal: string;
  currency: string;
};

export type PriceRows = { rows: PriceRow[]; hasFee: boolean; total: string; currency: string };

const decimalRe = /^(-?)(\d*)(?:\.(\d*))?$/;

function scaleOf(s: string | undefined): number {
  const m = decimalRe.exec((s || '').trim());
  return m && m[3] ? m[3].length : 0;
}

// units is a decimal string in 10^-scale units.
function units(s: string | undefined, scale: number): bigint {
  const m = decimalRe.exec((s || '').trim());
  if (!m || (!m[2] && !m[3])) return 0n;
  const frac = (m[3] || '').padEnd(scale, '0').slice(0, scale);
  const v = BigInt((m[2] || '0') + frac);
  return m[1] === '-' ? -v : v;
}

function decimal(v: bigint, scale: number): string {
  const neg = v < 0n;
  const abs = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const int = abs.slice(0, abs.length - scale) || '0';
  const frac = scale ? `.${abs.slice(abs.length - scale)}` : '';
  return `${neg ? '-' : ''}${int}${frac}`;
}

// priceRows splits a solution's price list. A line without a fare (an older
// answer) has its price as the fare, as the confirm page always read it.
export function priceRows(s: Pick<Solution, 'priceDetail' | 'total'>): PriceRows {
  const lines: PriceLine[] = s.priceDetail?.priceList || [];
  const scale = Math.max(2, ...lines.flatMap((l) => [l.fare, l.taxes, l.price, l.salePrice].map(scaleOf)), scaleOf(s.total.amount));
  let hasFee = false;
  const rows = lines.map((l) => {
    const taxes = units(l.taxes, scale);
    const fare = units(l.fare !== undefined && l.fare !== '' ? l.fare : l.price, scale);
    const sale = units(l.salePrice, scale);
    const fee = sale - fare - taxes;
    if (fee !== 0n) hasFee = true;
    const count = l.count ?? 1;
    return {
      passengerType: l.passengerType,
      count,
      fare: decimal(fare, scale),
      taxes: decimal(taxes, scale),
      fee: decimal(fee, scale),
      perPerson: decimal(sale, scale),
      subtotal: decimal(sale * BigInt(count), scale),
      currency: l.currency || s.total.currency,
    };
  });
  return { rows, hasFee, total: s.total.amount, currency: s.total.currency };
}

// travellers is how many people a solution prices.
export function travellers(s: Pick<Solution, 'priceDetail'>): number {
  return (s.priceDetail?.priceList || []).reduce((n, l) => n + (l.count || 0), 0);
}
