// The passenger and contact rules of spec §5, checked before the order is
// sent (the server checks them again). Errors are keyed by the form's
// names for the fields a 100001 answer names: passengers.0.surname for the
// server's passengers[0].surname (fieldPath.ts), contact.email.
import { isDate, localDate } from '../flight/format';
import {
  documentTypes,
  passengerTypes,
  type Contact,
  type ConfirmSolution,
  type OftenUsed,
  type PassengerForm,
  type PassengerType,
  type Restrictions,
} from './types';
import type { ScannedFields } from '../travellers/scan';

export type T = (key: string, opts?: Record<string, unknown>) => string;

// Ages of spec §3: adults are 12 and over, children 2 to 11, infants under 2.
export const adultFrom = 12;
export const childFrom = 2;

// ageOn is the age in whole years of someone born on birthday, on date
// (both YYYY-MM-DD).
export function ageOn(birthday: string, date: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number);
  const [y, m, d] = date.split('-').map(Number);
  let age = y - by;
  if (m < bm || (m === bm && d < bd)) age -= 1;
  return age;
}

export function typeForAge(age: number): PassengerType {
  if (age >= adultFrom) return 'adult';
  if (age >= childFrom) return 'child';
  return 'infant';
}

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

// isTypedDate is a real date written yyyy-mm-dd, from 1900 on.
export function isTypedDate(s: string): boolean {
  return datePattern.test(s) && isDate(s) && Number(s.slice(0, 4)) >= 1900;
}

// pastedDateOk is spec §5's paste rule: a pasted date must be yyyy-mm-dd.
export function pastedDateOk(text: string): boolean {
  return isTypedDate(text.trim());
}

// Trip holds the dates the rules measure against: ages on the first
// departure, documents valid beyond the last one.
export type Trip = { firstDate: string; lastDate: string };

export function tripOf(s: ConfirmSolution | undefined): Trip {
  const dates = (s?.segments || []).map((g) => localDate(g.departAt)).filter(Boolean);
  const journeyDates = (s?.journeys || []).map((j) => localDate(j.departAt)).filter(Boolean);
  const all = [...dates, ...journeyDates].sort();
  return { firstDate: all[0] || '', lastDate: all[all.length - 1] || '' };
}

function listed(xs: string[] | null | undefined): string[] {
  return (xs || []).map((x) => x.toUpperCase()).filter(Boolean);
}

// nationalityAllowed applies the fare's eligible and ineligible countries.
export function nationalityAllowed(code: string, r: Restrictions | undefined): boolean {
  const c = code.toUpperCase();
  const eligible = listed(r?.eligibleCountries);
  if (eligible.length && !eligible.includes(c)) return false;
  return !listed(r?.ineligibleCountries).includes(c);
}

// documentsUnrestricted: no list, or a list with "all" (spec §3 "all
// (unlimited)").
export function documentsUnrestricted(r: Restrictions | undefined): boolean {
  const docs = (r?.documents || []).filter(Boolean);
  return docs.length === 0 || docs.includes('all');
}

// documentChoices are the document types the fare accepts, in the form's
// order; a code we do not know yet comes last, as the fare names it.
export function documentChoices(r: Restrictions | undefined): string[] {
  if (documentsUnrestricted(r)) return [...documentTypes];
  const docs = (r?.documents || []).filter(Boolean);
  const known = documentTypes.filter((d) => docs.includes(d));
  const other = docs.filter((d) => !(documentTypes as readonly string[]).includes(d));
  return [...known, ...other];
}

const surnamePattern = /^[A-Z]+$/;
const documentNumberPattern = /^[A-Z0-9]{1,30}$/;
const cardPattern = /^[A-Z0-9]{4,30}$/;
const airlinePattern = /^[A-Z0-9]{2}$/;
const phonePattern = /^\+?[0-9][0-9 -]{4,19}$/;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validEmail(s: string): boolean {
  return emailPattern.test(s.trim()) && s.trim().length <= 254;
}

export type RuleContext = { today: string; trip: Trip; restrictions?: Restrictions };

// validatePassenger checks the form of passenger i; the answer maps field
// names (passengers.i.surname…) to translated messages.
export function validatePassenger(p: PassengerForm, i: number, c: RuleContext, t: T): Record<string, string> {
  const errs: Record<string, string> = {};
  const f = (name: string) => `passengers.${i}.${name}`;
  const surname = p.surname.trim();
  if (!surname) errs[f('surname')] = t('profile.passenger.error.surnameRequired');
  else if (!surnamePattern.test(surname)) errs[f('surname')] = t('profile.passenger.error.surnameFormat');
  if (!p.givenName.trim()) errs[f('givenName')] = t('profile.passenger.error.givenNameRequired');
  if (p.gender !== 'male' && p.gender !== 'female') errs[f('gender')] = t('profile.passenger.error.gender');

  const birthday = p.birthday.trim();
  if (!birthday) errs[f('birthday')] = t('profile.passenger.error.birthdayRequired');
  else if (!isTypedDate(birthday)) errs[f('birthday')] = t('profile.passenger.error.birthdayFormat');
  else if (birthday > c.today) errs[f('birthday')] = t('profile.passenger.error.birthdayFuture');
  else if (c.trip.firstDate) {
    const actual = typeForAge(ageOn(birthday, c.trip.firstDate));
    if (actual !== p.type) {
      errs[f('birthday')] = t('confirm.error.typeMismatch', {
        date: c.trip.firstDate,
        actual: t(`confirm.paxType.${actual}`),
        expected: t(`confirm.paxType.${p.type}`),
      });
    }
  }

  if (!p.nationality) errs[f('nationality')] = t('profile.passenger.error.nationalityRequired');
  else if (!nationalityAllowed(p.nationality, c.restrictions)) errs[f('nationality')] = t('confirm.error.nationalityIneligible');

  if (!p.documentType) errs[f('documentType')] = t('profile.passenger.error.documentTypeRequired');
  else if (!documentChoices(c.restrictions).includes(p.documentType)) errs[f('documentType')] = t('confirm.error.documentNotAccepted');
  const number = p.documentNumber.trim();
  if (!number) errs[f('documentNumber')] = t('profile.passenger.error.documentNumberRequired');
  else if (!documentNumberPattern.test(number)) errs[f('documentNumber')] = t('profile.passenger.error.documentNumber');
  const expiry = p.documentExpiry.trim();
  if (!expiry) errs[f('documentExpiry')] = t('profile.passenger.error.documentExpiryRequired');
  else if (!isTypedDate(expiry)) errs[f('documentExpiry')] = t('profile.passenger.error.documentExpiryFormat');
  else if (c.trip.lastDate && expiry <= c.trip.lastDate) errs[f('documentExpiry')] = t('confirm.error.expiryBeforeTravel', { date: c.trip.lastDate });

  const card = p.frequentFlyer.trim();
  if (card && !cardPattern.test(card)) errs[f('frequentFlyer')] = t('profile.card.error.number');
  else if (card && !p.ffAirline) errs[f('ffAirline')] = t('confirm.error.ffAirlineRequired');
  if (!card && p.ffAirline) errs[f('frequentFlyer')] = t('confirm.error.ffNumberRequired');
  else if (p.ffAirline && !airlinePattern.test(p.ffAirline)) errs[f('ffAirline')] = t('profile.card.error.airline');

  if (p.phone.trim() && !phonePattern.test(p.phone.trim())) errs[f('phone')] = t('profile.passenger.error.phone');
  if (p.email.trim() && !validEmail(p.email)) errs[f('email')] = t('profile.passenger.error.email');
  return errs;
}

// validateContact is spec §5: contact name, email and phone are required.
export function validateContact(c: Contact, t: T): Record<string, string> {
  const errs: Record<string, string> = {};
  if (!c.name.trim()) errs['contact.name'] = t('confirm.error.contactNameRequired');
  if (!c.email.trim()) errs['contact.email'] = t('confirm.error.contactEmailRequired');
  else if (!validEmail(c.email)) errs['contact.email'] = t('profile.passenger.error.email');
  if (!c.phone.trim()) errs['contact.phone'] = t('confirm.error.contactPhoneRequired');
  return errs;
}

let formKey = 0;

export function emptyPassenger(type: PassengerType): PassengerForm {
  formKey += 1;
  return {
    key: formKey, type, surname: '', givenName: '', gender: '', birthday: '', nationality: '', documentType: '',
    documentNumber: '', documentExpiry: '', documentIssuedAt: '', phone: '', email: '', frequentFlyer: '', ffAirline: '',
  };
}

// travellers are the passenger types of a solution, one entry a traveller,
// adults first (spec §3 priceList: passengerType and count).
export function travellers(s: ConfirmSolution | undefined): PassengerType[] {
  const lines = s?.priceDetail?.priceList || [];
  const out: PassengerType[] = [];
  for (const type of passengerTypes) {
    for (const l of lines) {
      if (l.passengerType !== type) continue;
      const n = l.count ?? 1;
      for (let k = 0; k < n; k++) out.push(type);
    }
  }
  return out.length ? out : ['adult'];
}

// syncPassengers fits the forms to the solution's travellers, keeping what
// was typed for each type in order.
export function syncPassengers(forms: PassengerForm[], s: ConfirmSolution | undefined): PassengerForm[] {
  const left = [...forms];
  return travellers(s).map((type) => {
    const i = left.findIndex((f) => f.type === type);
    if (i < 0) return emptyPassenger(type);
    return left.splice(i, 1)[0];
  });
}

// fillFrom copies an often-used passenger into a form of its own type.
// placeDocs fills the forms from DOCS passengers: each goes to the first
// form not yet filled of its own type, else to the first form not yet
// filled; it answers the forms and the indexes it filled.
export function placeDocs(forms: PassengerForm[], ps: (Partial<ScannedFields> & { type?: string })[]): { forms: PassengerForm[]; filled: number[] } {
  const out = [...forms];
  const filled: number[] = [];
  for (const p of ps) {
    let i = out.findIndex((f, k) => !filled.includes(k) && f.type === p.type);
    if (i < 0) i = out.findIndex((_, k) => !filled.includes(k));
    if (i < 0) break;
    out[i] = fillScanned(out[i], p);
    filled.push(i);
  }
  return { forms: out, filled };
}

// acceptedDocument is the fare's code for a document read elsewhere: a
// Chinese passport is a passport to a fare that lists only passports.
export function acceptedDocument(doc: string, choices: string[]): string {
  if (doc && !choices.includes(doc) && doc === 'chinese-passport' && choices.includes('passport')) return 'passport';
  return doc;
}

// fillScanned puts what a scanned document read (or a DOCS line gave) over
// the form's entries; what it did not read stays as typed. The form no
// longer stands for a saved traveller.
export function fillScanned(f: PassengerForm, s: Partial<ScannedFields>): PassengerForm {
  const out: PassengerForm = { ...f, oftenUsed: undefined };
  for (const k of ['surname', 'givenName', 'gender', 'birthday', 'nationality', 'documentType', 'documentNumber', 'documentExpiry'] as const) {
    const v = s[k];
    if (v) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export function fillFrom(f: PassengerForm, p: OftenUsed): PassengerForm {
  const gender = p.gender === 'male' || p.gender === 'female' ? p.gender : '';
  return {
    ...f,
    surname: (p.surname || '').toUpperCase(),
    givenName: p.givenName || '',
    gender,
    birthday: p.birthday || '',
    nationality: (p.nationality || '').toUpperCase(),
    documentType: p.documentType || '',
    documentNumber: (p.documentNumber || '').toUpperCase(),
    documentExpiry: p.documentExpiry || '',
    documentIssuedAt: p.documentIssuedAt || '',
    phone: p.phone || '',
    email: p.email || '',
    oftenUsed: p.id,
  };
}
