// What a scanned document or a saved traveller fills on a train passenger.
// The railway takes four documents (pkg/train: id_card, passport,
// hk_macao_permit, taiwan_permit) under its real-name rule, so a document
// read for a flight is mapped onto those, or refused with the reason.
import type { Recognition, ScannedFields } from '../travellers/scan';
import type { SavedTraveller } from '../travellers/TravellerPicker';
import { idCardValid } from './form';
import type { DocumentType, PassengerForm, TicketType } from './types';

// Outcome is the filled form, the catalog key of why the document cannot be
// used for rail ('' when it can), and, for a Chinese citizen, the Latin
// name the document's zone or the saved traveller gave, which the form does
// not take as the name (see realName).
export type Outcome = { form: PassengerForm; refusal: string; latinName: string };

// railDocument maps a booking-flow or saved-traveller document code onto the
// railway's, or names the refusal. A scan's "idcard" is a TD1 card with a
// machine-readable zone: China's resident identity card has none, so it is
// a foreign card. "eep" (zone code CS) is the mainland resident's permit for
// travelling TO Hong Kong and Macao, not the Hong Kong and Macao residents'
// permit (H/M number) the railway takes.
export function railDocument(code: string, nationality: string, number = ''): { type?: DocumentType; refusal?: string } {
  switch (code) {
    case 'passport':
    case 'chinese-passport':
      return { type: 'passport' };
    case 'idcard':
      // A saved traveller's national ID card is China's when its number
      // passes the resident ID check.
      return nationality === 'CN' && idCardValid(number) ? { type: 'id_card' } : { refusal: 'trainscan.refuse.foreignIdCard' };
    case 'hk-macao-return-permit':
      return { type: 'hk_macao_permit' };
    case 'taiwan-compatriot-permit':
    case 'taiwan-resident-mainland-permit':
      return { type: 'taiwan_permit' };
    case 'eep':
    case 'hk-macao-travel-permit':
    case 'hk-macau-permit':
      return { refusal: 'trainscan.refuse.exitEntryPermit' };
    case '':
      return { refusal: 'trainscan.refuse.unknown' };
    default:
      return { refusal: 'trainscan.refuse.other' };
  }
}

// realName: a Chinese citizen travels under the name printed in Chinese
// characters; a zone (and a saved traveller, kept A-Z) holds only its
// pinyin, so the name is left empty for the user to enter and the pinyin
// is shown for reference (a name left from another traveller would not
// match). Others travel under the Latin name as on the document.
function realName(f: PassengerForm, surname: string, givenName: string, nationality: string): { form: PassengerForm; latinName: string } {
  if (nationality === 'CN') return { form: { ...f, surname: '', givenName: '' }, latinName: [surname, givenName].filter(Boolean).join(' ') };
  return { form: { ...f, surname: surname || f.surname, givenName: givenName || f.givenName }, latinName: '' };
}

// fromScan fills a passenger from a recognition; a document the railway
// does not take fills nothing.
export function fromScan(f: PassengerForm, s: ScannedFields, r: Recognition): Outcome {
  const doc = railDocument(r.type, s.nationality, s.documentNumber);
  if (!doc.type) return { form: f, refusal: doc.refusal || 'trainscan.refuse.other', latinName: '' };
  const filled: PassengerForm = {
    ...f,
    gender: s.gender || f.gender,
    birthday: s.birthday || f.birthday,
    nationality: s.nationality || f.nationality,
    documentType: doc.type,
    documentNumber: s.documentNumber || f.documentNumber,
  };
  const { form, latinName } = realName(filled, s.surname, s.givenName, s.nationality);
  return { form, refusal: '', latinName };
}

const railTypes: Record<string, TicketType> = { adult: 'adult', child: 'child', infant: 'child' };

// fromSaved fills a passenger from a saved traveller: the person always,
// the document only when the railway takes it.
export function fromSaved(f: PassengerForm, p: SavedTraveller): Outcome {
  const nationality = (p.nationality || '').toUpperCase();
  const number = (p.documentNumber || '').toUpperCase();
  const doc = railDocument(p.documentType || '', nationality, number);
  const gender = p.gender === 'male' || p.gender === 'female' ? p.gender : f.gender;
  const person: PassengerForm = {
    ...f,
    type: railTypes[p.type] || f.type,
    gender,
    birthday: p.birthday || f.birthday,
    nationality: nationality || f.nationality,
    ...(doc.type ? { documentType: doc.type, documentNumber: number } : { documentNumber: '' }),
  };
  const { form, latinName } = realName(person, (p.surname || '').toUpperCase(), (p.givenName || '').toUpperCase(), nationality);
  return { form, refusal: doc.refusal || '', latinName };
}
