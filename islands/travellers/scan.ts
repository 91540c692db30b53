// The document-recognition call (POST /base/v2/analysis/document, design
// API.md "Document recognition") and what its answer fills on a passenger
// form. Shared by ScanDocument on every form that takes a traveller.
import { send } from '../flight/api';
import { alpha2 } from './countryCodes';

// Recognition is the answer's data: dates yyyy-mm-dd, gender male, female
// or '', nationality and issuing country as the zone writes them (ICAO
// alpha-3), confidence 0..1.
export type Recognition = {
  type: string;
  travel_document: string;
  surname: string;
  given_names: string;
  nationality: string;
  birthday: string;
  gender: string;
  expiry: string;
  issuing_country: string;
  confidence: number;
};

// ScannedFields are the traveller fields a document fills, named as the
// booking forms and saved travellers name them (pkg/profile PassengerInput).
export type ScannedFields = {
  surname: string;
  givenName: string;
  gender: '' | 'male' | 'female';
  birthday: string;
  nationality: string;
  documentType: string;
  documentNumber: string;
  documentExpiry: string;
};

export const scanPath = '/base/v2/analysis/document';
export const maxScanBytes = 10 * 1024 * 1024;
const imageTypes = ['image/jpeg', 'image/png'];
const imageExt = /\.(jpe?g|png)$/i;

// fileProblem is the catalog key of what is wrong with file before it is
// sent (spec §5: jpg, jpeg or png, at most 10MB), '' when nothing is.
export function fileProblem(file: File): string {
  if (!imageTypes.includes(file.type) && !imageExt.test(file.name)) return 'travellers.scan.error.type';
  if (file.size > maxScanBytes) return 'travellers.scan.error.size';
  return '';
}

// The document codes a recognition may name that the forms know.
const knownTypes = ['passport', 'chinese-passport', 'idcard', 'eep', 'hk-macao-travel-permit', 'taiwan-compatriot-permit'];

// fieldsOf maps a recognition onto a traveller's fields.
export function fieldsOf(r: Recognition): ScannedFields {
  const g = (r.gender || '').toLowerCase();
  return {
    surname: (r.surname || '').toUpperCase().replace(/[^A-Z]/g, ''),
    givenName: (r.given_names || '').toUpperCase().replace(/\s+/g, ' ').trim(),
    gender: g === 'male' || g === 'm' ? 'male' : g === 'female' || g === 'f' ? 'female' : '',
    birthday: r.birthday || '',
    nationality: alpha2(r.nationality),
    documentType: knownTypes.includes(r.type) ? r.type : '',
    documentNumber: (r.travel_document || '').toUpperCase().replace(/[^A-Z0-9]/g, ''),
    documentExpiry: r.expiry || '',
  };
}

// recognise sends the image and resolves with what was read; a refusal is
// an ApiError with the server's translated message.
export async function recognise(file: File, lang: string, signal?: AbortSignal): Promise<Recognition> {
  const body = new FormData();
  body.append('file', file, file.name);
  return send<Recognition>(scanPath, { method: 'POST', body, headers: { Accept: 'application/json', 'Accept-Language': lang }, signal });
}
