// The group request form's state, its checks and the request it sends
// (API.md "Group orders", spec §3 group booking filter, §5 journey rules).
import { addDays, isDate } from '../flight/format';
import { cityOf } from '../flight/AirportPicker';
import { cabins, type Cabin, type Passengers, type Place } from '../flight/types';
import { formField } from '../fieldPath';

export type TripType = 'oneway' | 'return' | 'multi';
export const tripTypes: TripType[] = ['oneway', 'return', 'multi'];

// At most five flights in a multi-city trip (spec §9), as the flight search.
export const maxJourneys = 5;
export const minMultiJourneys = 2;

// The spec's default group: 10 adults, 10 children, no infant (§3, §9).
export const defaultPassengers: Passengers = { adult: 10, child: 10, infant: 0 };

export type Journey = { key: number; origin: Place | null; destination: Place | null; date: string; returnDate: string; remark: string };

export type Contact = { name: string; email: string; phone: string };

export type RequestForm = {
  trip: TripType;
  journeys: Journey[];
  isChangeDate: boolean;
  acceptChangeFlight: boolean;
  passengers: Passengers;
  cabin: Cabin;
  contact: Contact;
  remark: string;
};

// GroupRequestBody is POST /order/v2/flight/group/orders.
export type GroupRequestBody = {
  journeys: { origin: string; destination: string; date: string; returnDate?: string; remark?: string }[];
  isChangeDate: boolean;
  acceptChangeFlight: boolean;
  passengers: Passengers;
  cabinClass: Cabin;
  contact: Contact;
  remark?: string;
};

let journeyKey = 0;
export function newJourney(origin: Place | null, date: string): Journey {
  journeyKey += 1;
  return { key: journeyKey, origin, destination: null, date, returnDate: '', remark: '' };
}

// initialForm is a one-way group a week out, with the spec's default counts
// and the user's own contact details filled in.
export function initialForm(today: string, contact: Partial<Contact> = {}): RequestForm {
  return {
    trip: 'oneway',
    journeys: [newJourney(null, addDays(today, 7))],
    isChangeDate: false,
    acceptChangeFlight: false,
    passengers: { ...defaultPassengers },
    cabin: 'economy',
    contact: { name: contact.name || '', email: contact.email || '', phone: contact.phone || '' },
    remark: '',
  };
}

// withTrip switches the trip type: a return keeps one journey and gets a
// return date; a multi-city trip has at least two journeys.
export function withTrip(f: RequestForm, trip: TripType): RequestForm {
  let journeys = f.journeys;
  if (trip !== 'multi') journeys = journeys.slice(0, 1);
  if (trip === 'return' && !journeys[0].returnDate && journeys[0].date) {
    journeys = [{ ...journeys[0], returnDate: addDays(journeys[0].date, 3) }];
  }
  if (trip === 'multi' && journeys.length < minMultiJourneys) {
    const last = journeys[journeys.length - 1];
    journeys = [...journeys, newJourney(last.destination, last.date ? addDays(last.date, 1) : '')];
  }
  return { ...f, trip, journeys };
}

export function addJourney(f: RequestForm): RequestForm {
  if (f.journeys.length >= maxJourneys) return f;
  const last = f.journeys[f.journeys.length - 1];
  return { ...f, journeys: [...f.journeys, newJourney(last.destination, last.date ? addDays(last.date, 1) : '')] };
}

export function removeJourney(f: RequestForm, key: number): RequestForm {
  if (f.journeys.length <= minMultiJourneys) return f;
  return { ...f, journeys: f.journeys.filter((j) => j.key !== key) };
}

type T = (key: string, o?: Record<string, unknown>) => string;

const emailRe = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// validate checks what the browser can before asking the server; the server
// checks it all again and its answers go beside the same fields.
export function validate(f: RequestForm, today: string, minSeats: number, t: T): Record<string, string> {
  const e: Record<string, string> = {};
  f.journeys.forEach((j, i) => {
    const p = `journeys.${i}.`;
    if (!j.origin) e[p + 'origin'] = t('groupportal.error.origin');
    if (!j.destination) e[p + 'destination'] = t('groupportal.error.destination');
    if (j.origin && j.destination && cityOf(j.origin) === cityOf(j.destination)) {
      e[p + 'destination'] = t('order.flight.booking.journeyError.rules');
    }
    if (!isDate(j.date)) e[p + 'date'] = t('groupportal.error.date');
    else if (j.date < today) e[p + 'date'] = t('groupportal.error.pastDate');
    else if (i > 0 && isDate(f.journeys[i - 1].date) && j.date < f.journeys[i - 1].date) e[p + 'date'] = t('groupportal.error.dateOrder');
    if (f.trip === 'return') {
      if (!isDate(j.returnDate)) e[p + 'returnDate'] = t('groupportal.error.returnDate');
      else if (isDate(j.date) && j.returnDate < j.date) e[p + 'returnDate'] = t('groupportal.error.returnBefore');
    }
  });
  const { adult, child, infant } = f.passengers;
  if (adult < 0 || child < 0 || infant < 0 || ![adult, child, infant].every(Number.isInteger)) {
    e['passengers'] = t('groupportal.error.count');
  } else if (adult < 1) {
    e['passengers'] = t('groupportal.error.adult');
  } else if (infant > adult) {
    e['passengers'] = t('groupportal.error.infants');
  } else if (adult + child < minSeats) {
    e['passengers'] = t('groupportal.error.minSeats', { min: minSeats });
  }
  if (!f.contact.name.trim()) e['contact.name'] = t('groupportal.error.contactName');
  if (!f.contact.email.trim()) e['contact.email'] = t('groupportal.error.contactEmail');
  else if (!emailRe.test(f.contact.email.trim())) e['contact.email'] = t('groupportal.error.email');
  if (!f.contact.phone.trim()) e['contact.phone'] = t('groupportal.error.contactPhone');
  return e;
}

// toRequest is the API body of the form.
export function toRequest(f: RequestForm): GroupRequestBody {
  return {
    journeys: f.journeys.map((j) => ({
      origin: j.origin?.code || '',
      destination: j.destination?.code || '',
      date: j.date,
      ...(f.trip === 'return' && j.returnDate ? { returnDate: j.returnDate } : {}),
      ...(j.remark.trim() ? { remark: j.remark.trim() } : {}),
    })),
    isChangeDate: f.isChangeDate,
    acceptChangeFlight: f.acceptChangeFlight,
    passengers: { ...f.passengers },
    cabinClass: f.cabin,
    contact: { name: f.contact.name.trim(), email: f.contact.email.trim(), phone: f.contact.phone.trim() },
    ...(f.remark.trim() ? { remark: f.remark.trim() } : {}),
  };
}

const plainFields = ['isChangeDate', 'acceptChangeFlight', 'cabinClass', 'contact.name', 'contact.email', 'contact.phone', 'remark'];

// fieldFor maps a field of the server's validation answer ("journeys[0].date"
// or "journeys.0.date", "passengers.adult") to the form's own, or '' for one
// the form does not show.
export function fieldFor(serverField: string, f: RequestForm): string {
  const k = formField(serverField);
  if (plainFields.includes(k)) return k;
  if (k === 'passengers' || k.startsWith('passengers.')) return 'passengers';
  if (k === 'journeys') return 'journeys.0.origin';
  const m = /^journeys\.(\d+)\.(origin|destination|date|returnDate|remark)$/.exec(k);
  if (m && Number(m[1]) < f.journeys.length) return `journeys.${m[1]}.${m[2]}`;
  return '';
}

export function isCabin(c: string): c is Cabin {
  return (cabins as readonly string[]).includes(c);
}

export { isDate };
