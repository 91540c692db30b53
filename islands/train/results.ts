// Filtering and sorting of a train search, in the browser: one search
// answers every train of the day, so narrowing it needs no new request.
import type { Train } from './types';
import { toChina } from './time';

export type SortKey = 'departure' | 'duration' | 'price';

// Departure time ranges (local hour, start inclusive, end exclusive).
export const timeRanges = ['0-6', '6-12', '12-18', '18-24'] as const;
export type TimeRange = (typeof timeRanges)[number];

export type Filters = { types: string[]; times: TimeRange[]; classes: string[]; availableOnly: boolean };

export const emptyFilters = (): Filters => ({ types: [], times: [], classes: [], availableOnly: false });

const stamp = /T(\d{2}):(\d{2})/;

// localHour is the hour of an RFC 3339 stamp in China time (the
// station's time, never the browser's).
export function localHour(rfc3339: string): number {
  const m = stamp.exec(toChina(rfc3339));
  return m ? Number(m[1]) : -1;
}

function inRange(hour: number, r: TimeRange): boolean {
  const [from, to] = r.split('-').map(Number);
  return hour >= from && hour < to;
}

// stopCount is the number of calls between origin and destination.
export function stopCount(t: Train): number {
  if (Array.isArray(t.stops)) return Math.max(0, t.stops.length - 2);
  return typeof t.stops === 'number' ? t.stops : 0;
}

// lowestPrice is the cheapest seat class's price in minor-unit-free cents,
// sold-out classes included (a price is a price).
export function lowestPrice(t: Train): number {
  let best = Infinity;
  for (const s of t.seats || []) {
    const p = Number(s.price?.amount);
    if (Number.isFinite(p) && p < best) best = p;
  }
  return best;
}

export function filterTrains(items: Train[], f: Filters): Train[] {
  return items.filter((t) => {
    if (f.types.length && !f.types.includes(t.trainType || '')) return false;
    if (f.times.length && !f.times.some((r) => inRange(localHour(t.departAt), r))) return false;
    if (f.classes.length) {
      const ok = (t.seats || []).some((s) => f.classes.includes(s.class) && (!f.availableOnly || s.available > 0));
      if (!ok) return false;
    } else if (f.availableOnly && !(t.seats || []).some((s) => s.available > 0)) return false;
    return true;
  });
}

export function sortTrains(items: Train[], key: SortKey): Train[] {
  const by: Record<SortKey, (a: Train, b: Train) => number> = {
    departure: (a, b) => Date.parse(a.departAt) - Date.parse(b.departAt),
    duration: (a, b) => a.durationMinutes - b.durationMinutes,
    price: (a, b) => lowestPrice(a) - lowestPrice(b),
  };
  // Ties keep departure order.
  return [...items].sort((a, b) => by[key](a, b) || Date.parse(a.departAt) - Date.parse(b.departAt));
}

// facets are the train types and seat classes a search answered, in a
// fixed order, for the filter's choices.
const typeOrder = ['G', 'C', 'D', 'Z', 'T', 'K', 'O', ''];
const classOrder = [
  'business', 'premium', 'first', 'second', 'deluxe_soft_sleeper', 'soft_sleeper', 'emu_sleeper',
  'hard_sleeper_upper', 'hard_sleeper_middle', 'hard_sleeper_lower', 'soft_seat', 'hard_seat', 'standing',
];

function order(list: string[], ref: string[]): string[] {
  const rank = (x: string) => (ref.indexOf(x) < 0 ? ref.length : ref.indexOf(x));
  return [...list].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function facets(items: Train[]): { types: string[]; classes: string[] } {
  const types = new Set<string>();
  const classes = new Set<string>();
  for (const t of items) {
    types.add(t.trainType || '');
    for (const s of t.seats || []) classes.add(s.class);
  }
  return { types: order([...types], typeOrder), classes: order([...classes], classOrder) };
}

// sortSeats orders a train's classes as facets does.
export function sortSeats<T extends { class: string }>(seats: T[]): T[] {
  return [...seats].sort((a, b) => {
    const ra = classOrder.indexOf(a.class);
    const rb = classOrder.indexOf(b.class);
    return (ra < 0 ? 99 : ra) - (rb < 0 ? 99 : rb);
  });
}

// hasSeatChoice: G, D and C trains let a traveller ask for a seat letter.
export function hasSeatChoice(trainType: string, seatClass: string): boolean {
  return ['G', 'D', 'C'].includes(trainType) && ['second', 'first', 'business', 'premium'].includes(seatClass);
}

// salesDates are the on-sale dates: today and the days after it, days in
// all (China Railway: 15).
export function salesDates(today: string, days: number): string[] {
  const [y, m, d] = today.split('-').map(Number);
  const base = Date.UTC(y, m - 1, d);
  return Array.from({ length: days }, (_, i) => new Date(base + i * 86_400_000).toISOString().slice(0, 10));
}
