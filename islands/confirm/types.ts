// Shapes of the booking-confirmation calls (docs: /openapi.json, design
// API.md "Flight search" 3 and "Flight order") as the FlightConfirm island
// reads them.
import type { Money, Solution } from '../flight/types';

export type PassengerType = 'adult' | 'child' | 'infant';
export const passengerTypes: PassengerType[] = ['adult', 'child', 'infant'];

// Restrictions limit who may travel on a fare (spec §3 Contact and
// restrictions). Documents: empty, or containing "all", accepts any.
export type Restrictions = {
  minAge?: number;
  maxAge?: number;
  documents?: string[] | null;
  eligibleCountries?: string[] | null;
  ineligibleCountries?: string[] | null;
};

export type Conditions = {
  refundable?: boolean;
  refundFee?: Money;
  changeable?: boolean;
  changeFee?: Money;
  voidFee?: Money;
};

// ConfirmSolution is a solution as the price check answers it.
export type ConfirmSolution = Omit<Solution, 'conditions'> & {
  conditions?: Conditions;
  restrictions?: Restrictions;
  ticketingMinutes?: number;
};

export type PriceStatus = 'ok' | 'price_changed' | 'package_changed' | 'invalid' | 'document_restriction_changed';

// Verification is POST /shopping/v2/flight/solutions/{id}/verification.
export type Verification = {
  status: PriceStatus;
  quoteId?: string;
  solution?: ConfirmSolution;
  previousTotal?: Money;
  quoteExpiresAt?: string;
};

// OftenUsed is one of GET /base/v2/often-used-passengers.
export type OftenUsed = {
  id: number;
  surname: string;
  givenName: string;
  type: string;
  gender: string;
  birthday: string;
  nationality: string;
  phone?: string;
  email?: string;
  documentType: string;
  documentNumber: string;
  documentExpiry: string;
  documentIssuedAt?: string;
};

export type OftenUsedPage = { items: OftenUsed[]; total: number };

export type Channel = { channel: string; kind: 'wallet' | 'gateway' | string };

// PaymentConfig is GET /order/v2/flight/config/payment.
export type PaymentConfig = {
  channels: Channel[];
  paymentDisabled: boolean;
  balance?: Money;
  creditLimit?: Money;
  available?: Money;
};

// Order is the part of an order the confirm page reads.
export type Order = {
  id: number | string;
  bookingNumber: string;
  status: string;
  total?: Money;
  actions?: string[];
};

// Statuses after which the order is not paid now: it waits for a review or
// is already held for the agency (spec §4).
export const unpaidStatuses = ['reviewing', 'reserved'];

export type Gender = '' | 'male' | 'female';

// PassengerForm is one traveller's entries, named as the order takes them.
export type PassengerForm = {
  key: number;
  type: PassengerType;
  surname: string;
  givenName: string;
  gender: Gender;
  birthday: string;
  nationality: string;
  documentType: string;
  documentNumber: string;
  documentExpiry: string;
  documentIssuedAt: string;
  phone: string;
  email: string;
  frequentFlyer: string;
  ffAirline: string;
  // oftenUsed is the often-used passenger the form was filled from.
  oftenUsed?: number;
};

export type Contact = { name: string; email: string; phone: string };

export const invoiceTypes = ['Bill', 'Itinerary', 'ItineraryWithBill', 'None'] as const;
export type InvoiceType = (typeof invoiceTypes)[number];

// documentTypes are the document codes of pkg/profile DocumentTypes, the
// booking flow's four first.
export const documentTypes = [
  'idcard',
  'passport',
  'chinese-passport',
  'eep',
  'hk-macao-return-permit',
  'hk-macao-travel-permit',
  'taiwan-compatriot-permit',
  'taiwan-resident-mainland-permit',
  'foreigner-residence-permit',
  'hk-macau-permit',
] as const;

// OrderRequest is POST /order/v2/flight/orders.
export type OrderRequest = {
  quoteId: string;
  solutionId: string;
  passengers: Omit<PassengerForm, 'key' | 'oftenUsed'>[];
  contact: Contact;
  invoiceType: InvoiceType;
  remark: string;
};
