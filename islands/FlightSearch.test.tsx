import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { FlightSearch, storageKey, type FlightSearchProps } from './FlightSearch';
import { I18nContext } from './useT';
import { bothLanguages, fakeApi, routes, type Env, type Route } from './testing';
import { initI18n } from './i18n';
import { dayOffset, formatAmount, formatDuration, localTime, addDays } from './flight/format';
import { canChange } from './flight/PassengersPicker';
import type { Solution, SolutionsPage } from './flight/types';

let en: i18n;
let cn: i18n;

beforeAll(async () => ({ en, cn } = await bothLanguages()));

// api fakes the agency API from routes (testing.ts), the paths named alone.
function api(table: Record<string, Route | Env | Env[]>) {
  const calls = fakeApi(routes(table));
  return { calls, of: (path: string) => calls.filter((c) => c.path === path) };
}

const places = {
  bei: [
    {
      code: 'BJS', name: 'Beijing', type: 'city', cityCode: 'BJS', cityName: 'Beijing', country: 'CN', countryName: 'China',
      airports: [
        { code: 'PEK', name: 'Beijing Capital', type: 'airport', cityCode: 'BJS', cityName: 'Beijing', country: 'CN', countryName: 'China' },
        { code: 'PKX', name: 'Beijing Daxing', type: 'airport', cityCode: 'BJS', cityName: 'Beijing', country: 'CN', countryName: 'China' },
      ],
    },
  ],
  lon: [
    { code: 'LHR', name: 'London Heathrow', type: 'airport', cityCode: 'LON', cityName: 'London', country: 'GB', countryName: 'United Kingdom' },
  ],
};

function airportRoute(_: unknown, url: string): Env {
  const q = new URL(url, 'http://x').searchParams.get('q') || '';
  return { code: 0, data: (places as Record<string, unknown[]>)[q.toLowerCase()] || [] };
}

function solution(id: string, carrier: string, name: string, amount: string): Solution {
  return {
    id,
    segments: [
      {
        carrier, carrierName: name, flightNumber: `${carrier}937`, origin: 'PEK', originName: 'Beijing Capital', destination: 'LHR',
        destinationName: 'London Heathrow', departAt: '2026-12-20T13:35:00+08:00', arriveAt: '2026-12-21T01:10:00+00:00',
        cabin: 'economy', bookingClass: 'Y', durationMinutes: 695,
      },
    ],
    journeys: [{ segments: [0], origin: 'PEK', destination: 'LHR', departAt: '2026-12-20T13:35:00+08:00', arriveAt: '2026-12-21T01:10:00+00:00', durationMinutes: 695, stops: 0 }],
    priceDetail: { productType: 'normal', priceList: [{ passengerType: 'adult', count: 1, price: '10000.00', taxes: '2345.60', salePrice: '12345.60', currency: 'CNY' }] },
    total: { amount, currency: 'CNY' },
    source: 'gds',
    ticketingSpeed: 'fast-standard',
    brand: 'Standard',
    baggage: { checkedPieces: 2, checkedKg: 23, cabinPieces: 1, cabinKg: 7 },
    conditions: { refundable: true, changeable: false },
  };
}

function page(items: Solution[], complete: boolean, extra: Partial<SolutionsPage> = {}): Env {
  const now = new Date().toISOString();
  return {
    code: 0,
    data: {
      complete, items, total: items.length, page: 1, pageSize: 20, currency: 'CNY', searchedAt: now,
      staleAt: new Date(Date.now() + 600_000).toISOString(),
      facets: {
        airlines: [
          { value: 'CA', label: 'Air China', count: 1 },
          { value: 'BA', label: 'British Airways', count: 1 },
        ],
        stops: [{ value: '0', label: 'Nonstop', count: items.length }],
        departureBuckets: [{ value: '12-18', label: '12:00–18:00', count: items.length }],
        arrivalBuckets: [],
        ticketingSpeed: [],
      },
      suppliers: complete
        ? [{ name: 'sim-gds', status: 'done', count: 1 }, { name: 'sim-ndc', status: 'done', count: 1 }]
        : [{ name: 'sim-gds', status: 'done', count: 1 }, { name: 'sim-ndc', status: 'pending', count: 0 }],
      ...extra,
    },
  };
}

const props: FlightSearchProps = { lang: 'en', hidePnr: false, currency: 'CNY', today: '2026-12-01', tomorrow: '2026-12-02', pollMs: 5, debounceMs: 0 };

function renderSearch(p: Partial<FlightSearchProps> = {}, i: i18n = en) {
  return render(
    <I18nContext.Provider value={i}>
      <FlightSearch {...props} {...p} />
    </I18nContext.Provider>,
  );
}

async function pick(label: RegExp | string, query: string, option: RegExp | string) {
  const box = screen.getAllByRole('combobox', { name: label })[0];
  fireEvent.change(box, { target: { value: query } });
  const opt = await screen.findByRole('option', { name: option });
  fireEvent.mouseDown(opt);
  return box as HTMLInputElement;
}

beforeEach(() => {
  window.sessionStorage.clear();
});


describe('format', () => {
  it('shows money, durations and local times by the spec §9 rules', () => {
    expect(formatAmount('12345.6')).toBe('12,345.60');
    expect(formatAmount('1234567')).toBe('1,234,567.00');
    expect(formatAmount('0.001')).toBe('0.01');
    expect(formatAmount('99.999')).toBe('100.00');
    expect(formatAmount('-5')).toBe('-5.00');
    expect(formatDuration(695)).toBe('11h35m');
    expect(formatDuration(65)).toBe('01h05m');
    expect(localTime('2026-12-20T23:35:00+08:00')).toBe('23:35');
    expect(dayOffset('2026-12-20T23:35:00+08:00', '2026-12-21T04:10:00+00:00')).toBe(1);
    expect(dayOffset('2026-12-21T01:00:00+09:00', '2026-12-20T18:00:00-08:00')).toBe(-1);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('keeps infants with adults and at most nine travellers', () => {
    expect(canChange({ adult: 1, child: 0, infant: 1 }, 'infant', 1)).toBe(false);
    expect(canChange({ adult: 1, child: 0, infant: 1 }, 'adult', -1)).toBe(false);
    expect(canChange({ adult: 5, child: 4, infant: 0 }, 'child', 1)).toBe(false);
    expect(canChange({ adult: 2, child: 0, infant: 0 }, 'infant', 1)).toBe(true);
  });
});

describe('FlightSearch form', () => {
  it('starts one-way, tomorrow, one adult, economy, with the PNR tab', () => {
    api({});
    renderSearch();
    expect(screen.getByRole('radio', { name: 'One-way' })).toHaveProperty('checked', true);
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-12-02');
    expect((screen.getByLabelText('Date') as HTMLInputElement).min).toBe('2026-12-01');
    expect(screen.getByRole('button', { name: /Passengers 1 adult/ })).toBeTruthy();
    expect((screen.getByLabelText('Cabin') as HTMLSelectElement).value).toBe('economy');
    expect(screen.getByRole('tab', { name: 'Book by PNR' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Search flights' }).getAttribute('aria-selected')).toBe('true');
  });

  it('has no PNR tab when the agency hides PNR booking', () => {
    api({});
    renderSearch({ hidePnr: true });
    expect(screen.queryByRole('tab', { name: 'Book by PNR' })).toBeNull();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.queryByLabelText('PNR text')).toBeNull();
    expect(screen.getByRole('button', { name: 'Search' })).toBeTruthy();
  });

  it('checks the journey rules before asking the server', async () => {
    const a = api({ '/base/v2/airports': airportRoute });
    renderSearch();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(/Please add at least one flight/)).toBeTruthy();
    expect(screen.getByText('Please choose a departure city or airport from the list.')).toBeTruthy();
    const from = screen.getByRole('combobox', { name: 'From' });
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(from);

    // PEK and PKX are both Beijing (BJS): the same city at both ends.
    await pick('From', 'bei', /Beijing Capital/);
    await pick('To', 'bei', /Beijing Daxing/);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('The departure and arrival cities must be different.')).toBeTruthy();
    expect(a.of('/shopping/v2/flight/async-shopping')).toHaveLength(0);
  });

  it('picks an airport of a city with the keyboard', async () => {
    const a = api({ '/base/v2/airports': airportRoute });
    renderSearch();
    const box = screen.getByRole('combobox', { name: 'From' }) as HTMLInputElement;
    fireEvent.change(box, { target: { value: 'bei' } });
    await screen.findByRole('option', { name: /Beijing Daxing/ });
    const options = within(screen.getByRole('listbox', { name: 'From' })).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringContaining('BJS'),
      expect.stringContaining('PEK'),
      expect.stringContaining('PKX'),
    ]);
    expect(a.of('/base/v2/airports')[0].url).toBe('/base/v2/airports?q=bei&limit=10');
    expect(a.of('/base/v2/airports')[0].lang).toBe('en');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1].id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Beijing Capital (PEK)');
    expect(box.getAttribute('aria-expanded')).toBe('false');
  });

  it('drops text that names no place when the field is left', async () => {
    api({ '/base/v2/airports': airportRoute });
    renderSearch();
    const box = await pick('From', 'bei', /Beijing Capital/);
    fireEvent.change(box, { target: { value: 'Nowhere' } });
    await screen.findByText('No city or airport matches', { selector: 'li' });
    fireEvent.blur(box);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Please choose a departure city or airport from the list.')).toBeTruthy();
  });

  it('shows the server’s field errors next to the fields', async () => {
    api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 100001, message: 'Some fields need your attention.', data: { fields: { 'journeys[0].destination': 'Please choose an airport or city from the list' } } },
    });
    renderSearch();
    await pick('From', 'bei', /Beijing Capital/);
    await pick('To', 'lon', /London Heathrow/);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const msg = await screen.findByText('Please choose an airport or city from the list');
    const to = screen.getByRole('combobox', { name: 'To' });
    expect(to.getAttribute('aria-describedby')).toBe(msg.id);
  });

  it('adds and removes multi-city flights, five at most', () => {
    api({});
    renderSearch();
    fireEvent.click(screen.getByRole('radio', { name: 'Multi-city' }));
    expect(screen.getAllByRole('combobox', { name: 'From' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /Remove flight/ })).toBeNull();
    const add = screen.getByRole('button', { name: 'Add a flight' });
    fireEvent.click(add);
    fireEvent.click(add);
    fireEvent.click(add);
    expect(screen.getAllByRole('combobox', { name: 'From' })).toHaveLength(5);
    expect(add).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove flight 3' }));
    expect(screen.getAllByRole('combobox', { name: 'From' })).toHaveLength(4);
    expect(screen.getByText('Flight 4')).toBeTruthy();
    expect(screen.queryByText('Flight 5')).toBeNull();
  });

  it('sends a return as two journeys, the second one back', async () => {
    const a = api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': page([], false),
    });
    renderSearch();
    fireEvent.click(screen.getByRole('radio', { name: 'Return' }));
    await pick('From', 'bei', /Beijing Capital/);
    await pick('To', 'lon', /London Heathrow/);
    fireEvent.change(screen.getByLabelText('Return date'), { target: { value: '2026-12-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('The return date cannot be before the departure date.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Return date'), { target: { value: '2026-12-09' } });
    fireEvent.click(screen.getByRole('button', { name: /Passengers/ }));
    fireEvent.click(screen.getByRole('button', { name: 'More Adults' }));
    fireEvent.click(screen.getByRole('button', { name: 'More Infants' }));
    fireEvent.click(screen.getByRole('button', { name: 'More Infants' }));
    fireEvent.click(screen.getByRole('button', { name: 'More Infants' }));
    expect(screen.getByRole('button', { name: /Passengers 2 adults, 2 infants/ })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Cabin'), { target: { value: 'business' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(a.of('/shopping/v2/flight/async-shopping')).toHaveLength(1));
    expect(a.of('/shopping/v2/flight/async-shopping')[0].body).toEqual({
      journeys: [
        { origin: 'PEK', destination: 'LHR', date: '2026-12-02' },
        { origin: 'LHR', destination: 'PEK', date: '2026-12-09' },
      ],
      passengers: { adult: 2, child: 0, infant: 2 },
      cabinClass: 'business',
      bookingType: 'return',
    });
  });
});

async function searchPekLhr() {
  await pick('From', 'bei', /Beijing Capital/);
  await pick('To', 'lon', /London Heathrow/);
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
}

describe('FlightSearch results', () => {
  it('fills in while suppliers answer, then completes', async () => {
    const ca = solution('sol-ca', 'CA', 'Air China', '12345.6');
    const ba = solution('sol-ba', 'BA', 'British Airways', '9870');
    let polls = 0;
    const a = api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1', expiresAt: '2026-12-01T10:10:00Z' } },
      '/shopping/v2/flight/async-shopping/solutions': () => (++polls < 3 ? page([ca], false) : page([ca, ba], true)),
    });
    const navigate = vi.fn();
    renderSearch({ navigate, pollMs: 30 });
    await searchPekLhr();
    expect(await screen.findByText('Searching flights… 1 of 2 suppliers have answered')).toBeTruthy();
    expect(screen.getByText('1 flight so far')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(await screen.findByText('Search complete: 2 flights')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(a.of('/shopping/v2/flight/async-shopping/solutions')[0].body).toEqual({
      searchId: 's1',
      filters: { airlines: [], stops: [], layovers: [], departureBuckets: [], arrivalBuckets: [], ticketingSpeed: [] },
      sort: 'default',
      groupBy: 'outbound',
      page: 1,
      pageSize: 20,
    });

    const card = screen.getAllByRole('article')[0];
    const c = within(card);
    expect(c.getByText('13:35')).toBeTruthy();
    expect(c.getByText('01:10', { exact: false })).toBeTruthy();
    expect(c.getByText('+1')).toBeTruthy();
    expect(c.getByText('11h35m')).toBeTruthy();
    expect(c.getByText('Nonstop')).toBeTruthy();
    expect(card.querySelector('.fs-price-amount')?.textContent).toBe('12,345.60 CNY');
    expect(c.getByText('Checked bags: 2 × 23 kg · Cabin bag: 1 × 7 kg')).toBeTruthy();
    expect(c.getByText('Fast ticketing (30 min)')).toBeTruthy();
    expect(c.getByText('Fare: Standard')).toBeTruthy();

    // Price detail popover.
    const details = c.getByRole('button', { name: 'Price details' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(details);
    expect(details.getAttribute('aria-expanded')).toBe('true');
    const table = c.getByRole('table');
    expect(within(table).getByRole('rowheader', { name: 'Adults' })).toBeTruthy();
    expect(within(table).getByText('10,000.00')).toBeTruthy();
    expect(within(table).getByText('2,345.60')).toBeTruthy();
    // Fare + taxes = price per person; × number = subtotal = total.
    expect(table.querySelector('.fs-pl-person')?.textContent).toBe('12,345.60 CNY');
    expect(table.querySelector('.fs-pl-subtotal')?.textContent).toBe('12,345.60 CNY');
    fireEvent.keyDown(details, { key: 'Escape' });
    expect(details.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(c.getByRole('button', { name: /^Select CA937/ }));
    expect(navigate).toHaveBeenCalledWith('/flight/booking/confirm?solutionId=sol-ca');
  });

  it('sends the chosen filters and sort', async () => {
    const a = api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': (body) =>
        page(body.filters.airlines.includes('BA') ? [solution('sol-ba', 'BA', 'British Airways', '9870')] : [solution('sol-ca', 'CA', 'Air China', '1')], true),
    });
    renderSearch();
    await searchPekLhr();
    const ba = await screen.findByRole('checkbox', { name: /British Airways/ });
    expect(screen.getByRole('group', { name: 'Airlines' })).toBeTruthy();
    fireEvent.click(ba);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Select BA937/ })).toBeTruthy());
    const polls = a.of('/shopping/v2/flight/async-shopping/solutions');
    expect(polls[polls.length - 1].body.filters.airlines).toEqual(['BA']);
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'price' } });
    await waitFor(() => {
      const p = a.of('/shopping/v2/flight/async-shopping/solutions');
      expect(p[p.length - 1].body.sort).toBe('price');
    });
    const p = a.of('/shopping/v2/flight/async-shopping/solutions');
    expect(p[p.length - 1].body.filters.airlines).toEqual(['BA']);
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => {
      const q = a.of('/shopping/v2/flight/async-shopping/solutions');
      expect(q[q.length - 1].body.filters.airlines).toEqual([]);
    });
  });

  it('shows the empty state when no flight was found', async () => {
    api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': { code: 400001, message: 'No suitable flight found, please modify the conditions and try again' },
    });
    renderSearch();
    await searchPekLhr();
    expect(await screen.findByText('No suitable flight found, please modify the conditions and try again')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Modify the search' }));
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'From' }));
  });

  it('asks to search again when the prices are stale, and runs the same search', async () => {
    let searches = 0;
    const a = api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': () => ({ code: 0, data: { searchId: `s${++searches}` } }),
      '/shopping/v2/flight/async-shopping/solutions': (body) =>
        body.searchId === 's1' ? { code: 400002, message: 'The prices may have changed, please search again' } : page([solution('sol-ca', 'CA', 'Air China', '1')], true),
    });
    renderSearch();
    await searchPekLhr();
    expect(await screen.findByText('Prices may have changed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Search again' }));
    expect(await screen.findByText('Search complete: 1 flight')).toBeTruthy();
    const started = a.of('/shopping/v2/flight/async-shopping');
    expect(started).toHaveLength(2);
    expect(started[1].body).toEqual(started[0].body);
    const polls = a.of('/shopping/v2/flight/async-shopping/solutions');
    expect(polls[polls.length - 1].body.searchId).toBe('s2');
  });

  it('shows the prompt by itself at staleAt', async () => {
    api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': () => {
        const at = Date.now();
        return page([solution('sol-ca', 'CA', 'Air China', '1')], true, { searchedAt: new Date(at).toISOString(), staleAt: new Date(at + 150).toISOString() });
      },
    });
    renderSearch();
    await searchPekLhr();
    expect(await screen.findByText('Search complete: 1 flight')).toBeTruthy();
    expect(await screen.findByText('Prices may have changed')).toBeTruthy();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Search again' })).toBeTruthy();
  });

  it('keeps the search for the page after a reload in another language', async () => {
    api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': page([solution('sol-ca', 'CA', 'Air China', '1')], true),
    });
    renderSearch();
    await searchPekLhr();
    expect(await screen.findByText('Search complete: 1 flight')).toBeTruthy();
    cleanup();
    const a = api({ '/shopping/v2/flight/async-shopping/solutions': page([solution('sol-ca', 'CA', '中国国际航空', '1')], true) });
    renderSearch({ lang: 'zh-cn' }, cn);
    expect(await screen.findByText('搜索完成：共 1 个航班')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: '出发地' }) as HTMLInputElement).value).toBe('Beijing Capital (PEK)');
    expect(a.of('/shopping/v2/flight/async-shopping/solutions')[0].lang).toBe('zh-cn');
    cleanup();
    // Another settlement currency: the cached search is gone.
    api({});
    renderSearch({ currency: 'USD' });
    expect((screen.getByRole('combobox', { name: 'From' }) as HTMLInputElement).value).toBe('');
    expect(window.sessionStorage.getItem(storageKey)).not.toContain('s1');
  });

  it('forgets the search of another login session', async () => {
    api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': page([solution('sol-ca', 'CA', 'Air China', '1')], true),
    });
    renderSearch({ sessionKey: '10' });
    await searchPekLhr();
    expect(await screen.findByText('Search complete: 1 flight')).toBeTruthy();
    cleanup();
    const a = api({});
    renderSearch({ sessionKey: '11' });
    expect((screen.getByRole('combobox', { name: 'From' }) as HTMLInputElement).value).toBe('');
    expect(a.calls).toHaveLength(0);
  });

  it('pages through the results and folds a long airline list', async () => {
    const airlines = Array.from({ length: 12 }, (_, i) => ({ value: `A${i}`, label: `Airline ${i}`, count: 12 - i }));
    const a = api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': (body) => {
        const env = page([solution(`sol-p${body.page}`, 'CA', 'Air China', '1')], true);
        const data = env.data as SolutionsPage;
        // 70 solutions in 45 groups of one outbound each: pages count groups.
        return { code: 0, data: { ...data, total: 70, groups: 45, page: body.page, facets: { ...data.facets, airlines } } };
      },
    });
    renderSearch();
    await searchPekLhr();
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Airlines' });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(8);
    fireEvent.click(within(group).getByRole('button', { name: 'Show all 12' }));
    expect(within(group).getAllByRole('checkbox')).toHaveLength(12);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    const polls = a.of('/shopping/v2/flight/async-shopping/solutions');
    expect(polls[polls.length - 1].body.page).toBe(2);
    expect(screen.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', false);
  });
});

describe('FlightSearch PNR', () => {
  const analysis = {
    style: 'amadeus',
    recordLocator: 'ABC123',
    segments: [
      { carrier: 'CA', flightNumber: 'CA937', bookingClass: 'Y', date: '2026-12-20', origin: 'PEK', destination: 'LHR', departTime: '13:35', arriveTime: '17:10' },
    ],
    journeys: [{ origin: 'PEK', destination: 'LHR', date: '2026-12-20', segments: [0] }],
    passengers: [
      { surname: 'ZHANG', givenName: 'SAN', type: 'adult' },
      { surname: 'ZHANG', givenName: 'XIAO', type: 'child' },
    ],
    skipped: ['3 OSI YY VIP'],
  };

  it('reads the PNR, shows what it found, and searches exactly those flights', async () => {
    const a = api({
      '/shopping/v2/flight/analysis-pnr': { code: 0, data: analysis },
      '/shopping/v2/flight/accurate-search': { code: 0, data: { searchId: 'acc1' } },
      '/shopping/v2/flight/async-shopping/solutions': page([solution('sol-ca', 'CA', 'Air China', '1')], true),
    });
    renderSearch();
    fireEvent.click(screen.getByRole('tab', { name: 'Book by PNR' }));
    fireEvent.click(screen.getByRole('button', { name: 'Read the PNR' }));
    expect(await screen.findByText('Please paste the PNR text.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('PNR text'), { target: { value: '1.ZHANG/SAN MR\n2 CA 937 Y 20DEC PEKLHR HK1 1335 1710' } });
    fireEvent.click(screen.getByRole('button', { name: 'Read the PNR' }));
    expect(await screen.findByText('Itinerary in PNR ABC123')).toBeTruthy();
    expect(a.of('/shopping/v2/flight/analysis-pnr')[0].body).toEqual({ pnr: '1.ZHANG/SAN MR\n2 CA 937 Y 20DEC PEKLHR HK1 1335 1710' });
    expect(screen.getByRole('cell', { name: 'CA937' })).toBeTruthy();
    expect(screen.getByText('ZHANG/SAN · Adults')).toBeTruthy();
    expect(screen.getByText('ZHANG/XIAO · Children')).toBeTruthy();
    expect(screen.getByText('3 OSI YY VIP')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Search these flights' }));
    expect(await screen.findByText('Search complete: 1 flight')).toBeTruthy();
    expect(a.of('/shopping/v2/flight/accurate-search')[0].body).toEqual({
      segments: [{ flightNumber: 'CA937', date: '2026-12-20', origin: 'PEK', destination: 'LHR', bookingClass: 'Y' }],
      passengers: { adult: 1, child: 1, infant: 0 },
    });
    expect(a.of('/shopping/v2/flight/async-shopping/solutions')[0].body.searchId).toBe('acc1');
  });

  it('shows why a PNR cannot be read', async () => {
    api({ '/shopping/v2/flight/analysis-pnr': { code: 100001, message: 'Some fields need your attention.', data: { fields: { pnr: 'No flight segment was found in the PNR' } } } });
    renderSearch();
    fireEvent.click(screen.getByRole('tab', { name: 'Book by PNR' }));
    fireEvent.change(screen.getByLabelText('PNR text'), { target: { value: 'hello' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Read the PNR' }));
    });
    expect(await screen.findByText('No flight segment was found in the PNR')).toBeTruthy();
    expect(screen.getByLabelText('PNR text').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('FlightSearch lost answers', () => {
  let tw: i18n;
  beforeAll(async () => {
    tw = await initI18n('zh-tw');
  });

  it('never says plain complete when suppliers’ answers were lost, in every language', async () => {
    const ca = solution('sol-ca', 'CA', 'Air China', '1');
    const lost = { partial: true, lostSuppliers: ['sim-gds'] };
    const lostGds = [{ name: 'sim-gds', status: 'lost', count: 0 }, { name: 'sim-ndc', status: 'done', count: 1 }];
    let polls = 0;
    api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': () =>
        ++polls < 3
          ? page([ca], false, { ...lost, suppliers: [{ name: 'sim-gds', status: 'lost', count: 0 }, { name: 'sim-ndc', status: 'pending', count: 0 }] })
          : page([ca], true, { ...lost, suppliers: lostGds }),
    });
    renderSearch({ pollMs: 30 });
    await searchPekLhr();
    expect(await screen.findByText('Searching flights… 1 of 2 suppliers have answered; answers from sim-gds were lost')).toBeTruthy();
    const done = await screen.findByText('Search finished with gaps: 1 flight; answers from sim-gds were lost, search again for the full list');
    expect(done.getAttribute('role')).toBe('status');
    expect(screen.queryByText(/Search complete/)).toBeNull();
    expect(screen.getByText('answers lost')).toBeTruthy();

    const cases: [string, i18n, string, string][] = [
      ['zh-cn', cn, '搜索结束但结果不完整：共 1 个航班；sim-gds 的结果已丢失，请重新搜索以获取完整列表', '结果丢失'],
      ['zh-tw', tw, '搜尋結束但結果不完整：共 1 個航班；sim-gds 的結果已遺失，請重新搜尋以取得完整清單', '結果遺失'],
    ];
    for (const [lang, i, line, status] of cases) {
      cleanup();
      api({ '/shopping/v2/flight/async-shopping/solutions': page([ca], true, { ...lost, suppliers: lostGds }) });
      renderSearch({ lang }, i);
      expect(await screen.findByText(line)).toBeTruthy();
      expect(screen.getByText(status)).toBeTruthy();
    }
  });

  it('says plain complete when nothing was lost', async () => {
    api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': { code: 0, data: { searchId: 's1' } },
      '/shopping/v2/flight/async-shopping/solutions': page([solution('sol-ca', 'CA', 'Air China', '1')], true, { partial: false, lostSuppliers: [] }),
    });
    renderSearch();
    await searchPekLhr();
    expect(await screen.findByText('Search complete: 1 flight')).toBeTruthy();
    expect(screen.queryByText(/lost/)).toBeNull();
  });
});

describe('FlightSearch failed supplier', () => {
  it('names the supplier that failed instead of plain complete, and searches again', async () => {
    const ca = solution('sol-ca', 'CA', 'Air China', '1');
    const failedNdc = [{ name: 'sim-gds', status: 'done', count: 1 }, { name: 'sim-ndc', status: 'failed', count: 0 }];
    let searches = 0;
    const a = api({
      '/base/v2/airports': airportRoute,
      '/shopping/v2/flight/async-shopping': () => ({ code: 0, data: { searchId: `s${++searches}` } }),
      '/shopping/v2/flight/async-shopping/solutions': (body) =>
        body.searchId === 's1' ? page([ca], true, { partial: false, lostSuppliers: [], suppliers: failedNdc }) : page([ca], true, { partial: false, lostSuppliers: [] }),
    });
    renderSearch();
    await searchPekLhr();
    expect(await screen.findByText('Search finished with gaps: 1 flight; sim-ndc did not answer (failed or timed out), search again to include them')).toBeTruthy();
    expect(screen.queryByText(/Search complete/)).toBeNull();
    expect(screen.getByText('failed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Search again' }));
    expect(await screen.findByText('Search complete: 1 flight')).toBeTruthy();
    const started = a.of('/shopping/v2/flight/async-shopping');
    expect(started).toHaveLength(2);
    expect(started[1].body).toEqual(started[0].body);
    expect(screen.queryByRole('button', { name: 'Search again' })).toBeNull();

    cleanup();
    api({ '/shopping/v2/flight/async-shopping/solutions': page([ca], true, { partial: false, lostSuppliers: [], suppliers: [{ name: 'sim-ndc', status: 'timeout', count: 0 }] }) });
    renderSearch({ lang: 'zh-cn' }, cn);
    expect(await screen.findByText('搜索结束但结果不完整：共 1 个航班；sim-ndc 未返回结果（失败或超时），请重新搜索以包含其航班')).toBeTruthy();
    expect(screen.getByRole('button', { name: '重新搜索' })).toBeTruthy();
  });
});
