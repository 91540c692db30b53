import { describe, expect, it } from 'vitest';
import { priceRows } from './price';
import { groupSolutions, outboundKey } from './group';
import { checkRanges, facetLabel } from './Results';
import type { Solution } from './types';

const line = (passengerType: string, count: number, fare: string, taxes: string, salePrice: string) => ({
  passengerType, count, fare, taxes, price: '', salePrice, currency: 'CNY',
});

describe('priceRows', () => {
  it('adds up: fare + taxes = per person, × number = subtotal, subtotals = total', () => {
    const r = priceRows({
      total: { amount: '14507.00', currency: 'CNY' },
      priceDetail: { priceList: [line('adult', 2, '3160.00', '2047.00', '5207.00'), line('child', 1, '2046.00', '2047.00', '4093.00')] },
    });
    expect(r.hasFee).toBe(false);
    expect(r.rows.map((x) => [x.fare, x.taxes, x.perPerson, x.subtotal])).toEqual([
      ['3160.00', '2047.00', '5207.00', '10414.00'],
      ['2046.00', '2047.00', '4093.00', '4093.00'],
    ]);
    const sum = r.rows.reduce((n, x) => n + Math.round(Number(x.subtotal) * 100), 0);
    expect(sum).toBe(1450700);
  });

  it('shows the agency service fee when the sale price holds one, so the line still adds up', () => {
    const r = priceRows({ total: { amount: '10500.00', currency: 'CNY' }, priceDetail: { priceList: [line('adult', 2, '3000.00', '2000.00', '5250.00')] } });
    expect(r.hasFee).toBe(true);
    expect(r.rows[0].fee).toBe('250.00');
    expect(r.rows[0].subtotal).toBe('10500.00');
  });

  it('reads an older line without a fare as the confirm page did (price is the fare)', () => {
    const r = priceRows({
      total: { amount: '12345.60', currency: 'CNY' },
      priceDetail: { priceList: [{ passengerType: 'adult', count: 1, price: '10000.00', taxes: '2345.60', salePrice: '12345.60', currency: 'CNY' }] },
    });
    expect(r.rows[0]).toMatchObject({ fare: '10000.00', fee: '0.00', perPerson: '12345.60' });
  });
});

function sol(id: string, out: string, back: string | null, amount: string): Solution {
  const segments = [
    { carrier: 'CA', flightNumber: out, origin: 'PEK', destination: 'LHR', departAt: '2026-12-25T02:20:00+08:00', arriveAt: '2026-12-25T06:00:00+00:00' },
  ];
  const journeys = [{ segments: [0], origin: 'PEK', destination: 'LHR', departAt: segments[0].departAt, arriveAt: segments[0].arriveAt, durationMinutes: 700, stops: 0 }];
  if (back) {
    segments.push({ carrier: 'CA', flightNumber: back, origin: 'LHR', destination: 'PEK', departAt: '2027-01-02T12:00:00+00:00', arriveAt: '2027-01-03T06:00:00+08:00' });
    journeys.push({ segments: [1], origin: 'LHR', destination: 'PEK', departAt: segments[1].departAt, arriveAt: segments[1].arriveAt, durationMinutes: 600, stops: 0 });
  }
  return { id, segments, journeys, total: { amount, currency: 'CNY' } };
}

describe('groupSolutions', () => {
  it('shows a repeated outbound once, its other returns and fares under it, in the page order', () => {
    const items = [sol('a', 'CA937', 'CA938', '5000'), sol('b', 'CA855', 'CA856', '5100'), sol('c', 'CA937', 'CA788', '5200'), sol('d', 'CA937', 'CA938', '5300')];
    const groups = groupSolutions(items);
    expect(groups.map((g) => g.items.map((s) => s.id))).toEqual([['a', 'c', 'd'], ['b']]);
    expect(outboundKey(items[0])).toBe(outboundKey(items[3]));
    expect(outboundKey(items[0])).not.toBe(outboundKey(items[1]));
  });

  it('knows one departure written in two zones as one outbound, as the server does', () => {
    const beijing = sol('a', 'CA937', null, '5000');
    const utc = sol('b', 'CA937', null, '5100');
    utc.segments[0].departAt = '2026-12-24T18:20:00Z';
    expect(groupSolutions([beijing, utc]).map((g) => g.items.length)).toEqual([2]);
  });
});

describe('filters', () => {
  const t = (k: string, o?: Record<string, unknown>) => (o && 'count' in o ? `${k}:${o.count}` : k);
  it('words stops, not 0 and 1, even when the server labels them with the code', () => {
    expect(facetLabel(t, 'stops', { value: '0', label: '0', count: 3 })).toBe('flight.stops.nonstop');
    expect(facetLabel(t, 'stops', { value: '1', label: '1', count: 3 })).toBe('flight.stops.count:1');
    expect(facetLabel(t, 'stops', { value: '2', label: '2', count: 3 })).toBe('results.stops.atLeast:2');
    expect(facetLabel(t, 'layovers', { value: 'FRA', label: 'Frankfurt (FRA)', count: 1 })).toBe('Frankfurt (FRA)');
  });

  it('checks price bounds before asking the server', () => {
    const empty = { priceMin: '', priceMax: '', maxDuration: '', departFrom: '', departTo: '', arriveFrom: '', arriveTo: '' };
    expect(checkRanges({ ...empty, priceMin: 'abc' }).errors).toEqual({ priceMin: 'results.error.price' });
    expect(checkRanges({ ...empty, priceMin: '5000', priceMax: '100' }).errors).toEqual({ priceMax: 'results.error.priceOrder' });
    expect(checkRanges({ ...empty, priceMin: '1,200', maxDuration: '720', departFrom: '22:00', departTo: '02:00' }).filters).toEqual({
      priceMin: '1200', priceMax: undefined, maxDuration: 720, departFrom: '22:00', departTo: '02:00', arriveFrom: undefined, arriveTo: undefined,
    });
  });
});
