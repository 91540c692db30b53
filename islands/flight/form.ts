// The flight-search form's state, its checks (spec §5 journey rules) and the
// request it sends.
import { addDays, isDate } from './format';
import { cityOf } from './AirportPicker';
import type { BookingType, Cabin, Passengers, Place, ShoppingRequest } from './types';
import { cabins } from './types';
import { formField } from '../fieldPath';

export const maxFlights = 5;
export const minMultiFlights = 2;

export type Row = { key: number; origin: Place | null; destination: Place | null; date: string };

export type FormState = {
  bookingType: BookingType;
  rows: Row[];
  returnDate: string;
  passengers: Passengers;
  cabin: Cabin;
};

// Defaults are what the server may preset (a link to a route, a search to
// repeat): codes and dates only.
export type Defaults = {
  origin?: string;
  destination?: string;
  date?: string;
  returnDate?: string;
  bookingType?: string;
  cabinClass?: string;
  adult?: number;
  child?: number;
  infant?: number;
};

let rowKey = 0;
export function newRow(origin: Place | null, destination: Place | null, date: string): Row {
  rowKey += 1;
  return { key: rowKey, origin, destination, date };
}

function codePlace(code: string | undefined): Place | null {
  if (!code || !/^[A-Z]{3}$/.test(code)) return null;
  return { code, name: code, type: 'airport', cityCode: code };
}

// initialForm is the spec §3 flight booking filter's defaults: one-way,
// tomorrow, one adult, economy, unless the server preset something.
export function initialForm(tomorrow: string, d: Defaults = {}): FormState {
  const date = d.date && isDate(d.date) && d.date >= tomorrow ? d.date : tomorrow;
  const bookingType: BookingType = d.bookingType === 'return' || d.bookingType === 'multi' ? d.bookingType : 'oneway';
  const cabin = (cabins as readonly string[]).includes(d.cabinClass || '') ? (d.cabinClass as Cabin) : 'economy';
  const adult = Math.max(1, Math.min(9, d.adult || 1));
  const child = Math.max(0, Math.min(9 - adult, d.child || 0));
  const infant = Math.max(0, Math.min(adult, 9 - adult - child, d.infant || 0));
  const returnDate = d.returnDate && isDate(d.returnDate) && d.returnDate >= date ? d.returnDate : addDays(date, 3);
  const rows = [newRow(codePlace(d.origin), codePlace(d.destination), date)];
  if (bookingType === 'multi') rows.push(newRow(rows[0].destination, null, addDays(date, 1)));
  return { bookingType, rows, returnDate, passengers: { adult, child, infant }, cabin };
}

// withBookingType switches the trip type, keeping what the user entered and
// giving multi-city its second flight.
export function withBookingType(f: FormState, bookingType: BookingType): FormState {
  let rows = f.rows;
  if (bookingType === 'multi' && rows.length < minMultiFlights) {
    const last = rows[rows.length - 1];
    rows = [...rows, newRow(last.destination, null, addDays(last.date, 1))];
  }
  let returnDate = f.returnDate;
  if (bookingType === 'return' && (!returnDate || returnDate < rows[0].date)) returnDate = addDays(rows[0].date, 3);
  return { ...f, bookingType, rows, returnDate };
}

export function addFlight(f: FormState): FormState {
  if (f.rows.length >= maxFlights) return f;
  const last = f.rows[f.rows.length - 1];
  return { ...f, rows: [...f.rows, newRow(last.destination, null, addDays(last.date, 1))] };
}

export function removeFlight(f: FormState, key: number): FormState {
  if (f.rows.length <= minMultiFlights) return f;
  return { ...f, rows: f.rows.filter((r) => r.key !== key) };
}

// activeRows are the rows the trip type uses.
export function activeRows(f: FormState): Row[] {
  return f.bookingType === 'multi' ? f.rows.slice(0, maxFlights) : f.rows.slice(0, 1);
}

export type Problems = { fields: Record<string, string>; form: string[] };

type T = (key: string, o?: Record<string, unknown>) => string;

// validate applies spec §5 to the form: a journey list that is not empty,
// places chosen from the list, origin and destination in different cities,
// dates from today on and in order.
export function validate(f: FormState, today: string, t: T): Problems {
  const p: Problems = { fields: {}, form: [] };
  const rows = activeRows(f);
  if (rows.length === 0 || rows.every((r) => !r.origin && !r.destination)) p.form.push(t('flight.booking.journeyError.empty'));
  rows.forEach((r, i) => {
    if (!r.origin) p.fields[`journeys.${i}.origin`] = t('flight.error.originRequired');
    if (!r.destination) p.fields[`journeys.${i}.destination`] = t('flight.error.destinationRequired');
    if (r.origin && r.destination && cityOf(r.origin) === cityOf(r.destination)) {
      p.fields[`journeys.${i}.destination`] = t('order.flight.booking.journeyError.rules');
    }
    if (!r.date || !isDate(r.date)) p.fields[`journeys.${i}.date`] = t('flight.error.dateRequired');
    else if (r.date < today) p.fields[`journeys.${i}.date`] = t('flight.error.datePast');
    else if (i > 0 && rows[i - 1].date && r.date < rows[i - 1].date) p.fields[`journeys.${i}.date`] = t('flight.error.dateOrder');
  });
  if (f.bookingType === 'return') {
    if (!f.returnDate || !isDate(f.returnDate)) p.fields.returnDate = t('flight.error.dateRequired');
    else if (rows[0] && f.returnDate < rows[0].date) p.fields.returnDate = t('flight.error.returnBeforeDepart');
  }
  const { adult, child, infant } = f.passengers;
  if (adult < 1 || infant > adult || adult + child + infant > 9) p.fields.passengers = t('flight.error.passengers');
  return p;
}

// toRequest is the async-shopping body of a valid form; a return is two
// journeys, the second one back.
export function toRequest(f: FormState): ShoppingRequest {
  const rows = activeRows(f);
  const journeys = rows.map((r) => ({ origin: r.origin?.code || '', destination: r.destination?.code || '', date: r.date }));
  if (f.bookingType === 'return' && rows[0]) {
    journeys.push({ origin: rows[0].destination?.code || '', destination: rows[0].origin?.code || '', date: f.returnDate });
  }
  return { journeys, passengers: { ...f.passengers }, cabinClass: f.cabin, bookingType: f.bookingType };
}

// fieldOf maps a field of the server's validation answer to the form's own:
// a return's second journey is the first row read backwards.
export function fieldOf(serverField: string, f: FormState): string | null {
  const k = formField(serverField);
  const m = /^journeys\.(\d+)\.(origin|destination|date)$/.exec(k);
  if (m) {
    const i = Number(m[1]);
    if (f.bookingType === 'return' && i === 1) {
      return m[2] === 'date' ? 'returnDate' : m[2] === 'origin' ? 'journeys.0.destination' : 'journeys.0.origin';
    }
    if (i < activeRows(f).length) return `journeys.${i}.${m[2]}`;
    return null;
  }
  if (k === 'passengers' || k.startsWith('passengers.')) return 'passengers';
  if (k === 'cabinClass') return 'cabinClass';
  return null;
}
