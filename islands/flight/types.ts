// Shapes of the shopping API (docs: /openapi.json, design API.md "Flight
// search") as the flight-search island reads them.

export type PlaceType = 'airport' | 'city';

// Place is an answer of GET /base/v2/airports: an airport or a city, names in
// the request's language; a city lists its airports.
export type Place = {
  code: string;
  name: string;
  type: PlaceType;
  cityCode?: string;
  cityName?: string;
  country?: string;
  countryName?: string;
  airports?: Place[];
};

export type Passengers = { adult: number; child: number; infant: number };

export type BookingType = 'oneway' | 'return' | 'multi';

export const cabins = ['economy', 'premium_economy', 'business', 'premium_business', 'first', 'premium_first'] as const;
export type Cabin = (typeof cabins)[number];

export type JourneyQuery = { origin: string; destination: string; date: string };

export type ShoppingRequest = {
  journeys: JourneyQuery[];
  passengers: Passengers;
  cabinClass: Cabin;
  bookingType: BookingType;
};

export type AccurateSegment = { flightNumber: string; date: string; origin: string; destination: string; bookingClass: string };

export type AccurateRequest = { segments: AccurateSegment[]; passengers: Passengers };

// Search is what started a search session, kept to run it again when its
// prices have gone stale.
export type Search = { kind: 'shopping'; request: ShoppingRequest } | { kind: 'accurate'; request: AccurateRequest };

export type SearchStarted = { searchId: string; expiresAt?: string };

export type Money = { amount: string; currency: string };

// Leg is where and when a flight segment or a train runs.
export type Leg = {
  origin: string;
  originName?: string;
  destination: string;
  destinationName?: string;
  departAt: string;
  arriveAt: string;
};

export type Segment = Leg & {
  carrier: string;
  carrierName?: string;
  flightNumber: string;
  operatingCarrier?: string;
  cabin?: string;
  bookingClass?: string;
  fareBasis?: string;
  durationMinutes?: number;
  aircraft?: string;
  seatsLeft?: number;
};

export type Journey = {
  segments: number[];
  origin: string;
  destination: string;
  departAt: string;
  arriveAt: string;
  durationMinutes: number;
  stops: number;
  selfTransfer?: boolean;
};

export type PriceLine = {
  passengerType: string;
  count?: number;
  fare?: string;
  price?: string;
  taxes?: string;
  salePrice: string;
  currency: string;
};

export type Solution = {
  id: string;
  segments: Segment[];
  journeys: Journey[];
  priceDetail?: { productType?: string; priceList: PriceLine[] };
  total: Money;
  source?: string;
  sources?: string[];
  ticketingSpeed?: string;
  brand?: string;
  baggage?: { checkedPieces?: number; checkedKg?: number; cabinPieces?: number; cabinKg?: number };
  conditions?: { refundable?: boolean; refundFee?: Money; changeable?: boolean; changeFee?: Money };
  selfTransfer?: boolean;
  protection?: string;
  expiresAt?: string;
};

export type FacetValue = { value: string; label?: string; count: number };

export const facetNames = ['airlines', 'stops', 'layovers', 'departureBuckets', 'arrivalBuckets', 'ticketingSpeed'] as const;
export type FacetName = (typeof facetNames)[number];

// RangeFilters bound the price (total, settlement currency), the longest
// journey (minutes) and the first journey's departure and arrival (HH:MM,
// local time at the airport); unset for no bound.
export type RangeFilters = {
  priceMin?: string;
  priceMax?: string;
  maxDuration?: number;
  departFrom?: string;
  departTo?: string;
  arriveFrom?: string;
  arriveTo?: string;
};

export const rangeNames = ['priceMin', 'priceMax', 'maxDuration', 'departFrom', 'departTo', 'arriveFrom', 'arriveTo'] as const;

export type Filters = Record<FacetName, string[]> & RangeFilters;

// Ranges bound the range filters over every solution found so far.
export type Ranges = { priceMin?: string; priceMax?: string; durationMin?: number; durationMax?: number };

export type SupplierStatus = { name: string; status: 'pending' | 'done' | 'failed' | 'timeout' | 'lost' | string; count?: number };

export type SolutionsPage = {
  complete: boolean;
  items: Solution[];
  total: number;
  // groups: with groupBy, how many groups the solutions make (page and
  // pageSize count groups then).
  groups?: number;
  page?: number;
  pageSize?: number;
  currency?: string;
  searchedAt?: string;
  staleAt?: string;
  facets?: Partial<Record<FacetName, FacetValue[]>>;
  ranges?: Ranges;
  suppliers?: SupplierStatus[];
  // partial: some suppliers' answers were lost (the server could not keep
  // them), so the list lacks flights even once complete; lostSuppliers
  // names them.
  partial?: boolean;
  lostSuppliers?: string[];
};

export type Sort = 'default' | 'price' | 'time';

export type PnrSegment = {
  carrier: string;
  flightNumber: string;
  bookingClass: string;
  date: string;
  origin: string;
  destination: string;
  departTime?: string;
  arriveTime?: string;
};

export type PnrPassenger = { surname: string; givenName: string; type?: string };

export type PnrAnalysis = {
  style?: string;
  recordLocator?: string;
  segments: PnrSegment[];
  journeys?: { origin: string; destination: string; date: string; segments?: unknown[] }[];
  passengers: PnrPassenger[];
  skipped?: string[];
};

export function emptyFilters(): Filters {
  return { airlines: [], stops: [], layovers: [], departureBuckets: [], arrivalBuckets: [], ticketingSpeed: [] };
}

// filterCount is how many filters are set: each ticked value and each bound.
export function filterCount(f: Filters): number {
  const ticked = facetNames.reduce((n, name) => n + (f[name]?.length || 0), 0);
  return ticked + rangeNames.filter((r) => f[r] !== undefined && f[r] !== '' && f[r] !== 0).length;
}

// withFilters completes filters kept from an older page (a facet it did not
// know is empty).
export function withFilters(f: Partial<Filters> | undefined): Filters {
  const out: Filters = { ...emptyFilters(), ...(f || {}) };
  for (const name of facetNames) if (!Array.isArray(out[name])) out[name] = [];
  return out;
}
