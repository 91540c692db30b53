// The booking form's state and the checks made before anything is sent;
// the server checks again and its field errors land on the same fields.
import type { Contact, DocumentType, PassengerForm, TicketType } from './types';
import { formField } from '../fieldPath';

let nextKey = 1;

export function emptyPassenger(type: TicketType, nationality = 'CN', documentType: DocumentType = 'id_card'): PassengerForm {
  return { key: nextKey++, type, surname: '', givenName: '', gender: '', birthday: '', nationality, documentType, documentNumber: '', seatLetter: '' };
}

// passengersFor is one form per traveller searched for: adults first.
export function passengersFor(adult: number, child: number): PassengerForm[] {
  return [...Array.from({ length: adult }, () => emptyPassenger('adult')), ...Array.from({ length: child }, () => emptyPassenger('child'))];
}

const idCard = /^\d{17}[\dX]$/;
const idWeights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const idCheck = '10X98765432';

// idCardValid is the resident identity card's ISO 7064 MOD 11-2 check.
export function idCardValid(n: string): boolean {
  if (!idCard.test(n)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(n[i]) * idWeights[i];
  return idCheck[sum % 11] === n[17];
}

const patterns: Record<DocumentType, RegExp> = {
  id_card: idCard,
  passport: /^[A-Z0-9]{5,17}$/,
  hk_macao_permit: /^[HM]\d{8,10}$/,
  taiwan_permit: /^\d{8}$/,
};

function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(s + 'T00:00:00Z');
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

// validatePassenger returns catalog keys by field name (passengers.i.x).
export function validatePassenger(p: PassengerForm, i: number, today: string): Record<string, string> {
  const e: Record<string, string> = {};
  const f = (x: string) => `passengers.${i}.${x}`;
  if (!p.surname.trim()) e[f('surname')] = 'trainportal.error.required';
  if (!p.givenName.trim()) e[f('givenName')] = 'trainportal.error.required';
  if (!p.gender) e[f('gender')] = 'trainportal.error.required';
  if (!p.birthday) e[f('birthday')] = 'trainportal.error.required';
  else if (!isDate(p.birthday) || p.birthday > today) e[f('birthday')] = 'trainportal.error.birthday';
  if (!p.nationality) e[f('nationality')] = 'trainportal.error.required';
  const n = p.documentNumber.trim();
  if (!n) e[f('documentNumber')] = 'trainportal.error.required';
  else if (!patterns[p.documentType].test(n) || (p.documentType === 'id_card' && !idCardValid(n))) e[f('documentNumber')] = `trainportal.error.document.${p.documentType}`;
  return e;
}

export function validateContact(c: Contact): Record<string, string> {
  const e: Record<string, string> = {};
  if (!c.name.trim()) e['contact.name'] = 'trainportal.error.required';
  if (!c.phone.trim()) e['contact.phone'] = 'trainportal.error.required';
  else if (!/^\+?[\d -]{6,20}$/.test(c.phone.trim())) e['contact.phone'] = 'trainportal.error.phone';
  if (c.email.trim() && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(c.email.trim())) e['contact.email'] = 'trainportal.error.email';
  return e;
}

// serverField maps a field a 100001 answer names (passengers[0].surname or
// passengers.0.surname) onto the form's name for it, or '' for none.
export function serverField(key: string, count: number): string {
  const k = formField(key);
  if (k.startsWith('contact.')) return k;
  const m = /^passengers\.(\d+)\.(\w+)$/.exec(k);
  if (!m || Number(m[1]) >= count) return '';
  return k;
}
