// Shapes of the train API (API.md "Trains") as the islands read them.
import type { Leg } from '../flight/types';

export type Money = { amount: string; currency: string };

export type Station = { code: string; name: string; city?: string; country?: string; pinyin?: string };

export type Stop = { station: string; name?: string; arrive?: string; depart?: string };

export type Seat = { class: string; price: Money; available: number; seatLetters?: string[] };

export type Train = Leg & {
  id: string;
  trainNumber: string;
  trainType: string;
  durationMinutes: number;
  // stops: the calls in between as a list, or only their number.
  stops: number | Stop[];
  seats: Seat[];
  expiresAt?: string;
};

export type SearchRequest = {
  origin: string;
  destination: string;
  date: string;
  passengers: { adult: number; child: number };
};

export type SearchResult = { items: Train[] };

export type TicketType = 'adult' | 'child' | 'student' | 'disabled_military';
export const ticketTypes: TicketType[] = ['adult', 'child', 'student', 'disabled_military'];

export type DocumentType = 'id_card' | 'passport' | 'hk_macao_permit' | 'taiwan_permit';
export const documentTypes: DocumentType[] = ['id_card', 'passport', 'hk_macao_permit', 'taiwan_permit'];

export const seatLetters = ['A', 'B', 'C', 'D', 'F'];

export type PassengerForm = {
  key: number;
  type: TicketType;
  surname: string;
  givenName: string;
  gender: '' | 'male' | 'female';
  birthday: string;
  nationality: string;
  documentType: DocumentType;
  documentNumber: string;
  seatLetter: string;
};

export type Contact = { name: string; email: string; phone: string };

export type Ticket = {
  // passenger is the passenger's id in the order (1, 2, ...).
  passenger: number;
  passengerName?: string;
  coach: string;
  seat: string;
  ticketNumber: string;
  status?: string;
  trainNumber?: string;
};

export type OrderPassenger = {
  id?: number;
  type: string;
  surname: string;
  givenName: string;
  gender?: string;
  birthday?: string;
  nationality?: string;
  documentType?: string;
  documentNumber?: string;
  seatLetter?: string;
};

export type RefundQuote = { refundAmount: Money; fee: Money; validUntil: string; passengers?: number[] };

export type ChangeQuote = { id?: string; fareDifference?: Money; fee?: Money; due?: Money; total?: Money; validUntil?: string };

export type TrainOrder = {
  id: number;
  bookingNumber: string;
  status: string;
  trainNumber?: string;
  trainType?: string;
  origin?: string;
  originName?: string;
  destination?: string;
  destinationName?: string;
  departAt?: string;
  arriveAt?: string;
  seatClass?: string;
  passengers: OrderPassenger[];
  tickets?: Ticket[];
  total?: Money;
  holdExpiresAt?: string;
  quote?: Quote | null;
  actions?: string[];
};

// Quote is the after-sales quote waiting for the agency's confirmation.
export type Quote = { kind: 'refund' | 'change'; passengers: number[]; refundAmount: Money; fee: Money; due: Money; validUntil: string; seatClass?: string; train?: { trainNumber: string; departAt: string } };

// Statuses an order rests in while ticketing runs.
export const pendingStatuses = ['proceeding'];
