import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { FlightConfirm, fieldFor, newIdempotencyKey, type FlightConfirmProps } from './FlightConfirm';
import { I18nContext } from './useT';
import { bothLanguages, fakeApi, routes, type Env, type Route } from './testing';
import { storageKey } from './flight/cache';
import { loadCountries } from './countries';
import { ageOn, documentChoices, nationalityAllowed, pastedDateOk, typeForAge } from './confirm/validate';
import { times } from './confirm/Summary';
import type { ConfirmSolution, Verification } from './confirm/types';

let en: i18n;
let cn: i18n;

beforeAll(async () => {
  ({ en, cn } = await bothLanguages());
  await loadCountries();
});

// api fakes the agency API from routes (testing.ts), "METHOD path" or
// path; an unknown path is a 404, and every envelope has its data and
// message, as the server writes them.
function api(table: Record<string, Route | Env | Env[]>) {
  const answer = routes(table, { code: 100004, message: 'Not Found', status: 404 });
  const calls = fakeApi((c) => {
    const env = answer(c);
    return { status: env.status, code: env.code, data: env.data ?? null, message: env.message ?? '' };
  });
  return { calls, of: (path: string) => calls.filter((c) => c.path === path) };
}

const verifyPath = '/shopping/v2/flight/solutions/s1_abc/verification';
const ordersPath = '/order/v2/flight/orders';
const payPath = '/order/v2/flight/orders/77/payment';
const configPath = '/order/v2/flight/config/payment';
const oftenPath = '/base/v2/often-used-passengers';

function solution(over: Partial<ConfirmSolution> = {}): ConfirmSolution {
  return {
    id: 's1_abc',
    segments: [
      {
        carrier: 'CA', carrierName: 'Air China', flightNumber: 'CA937', origin: 'PEK', originName: 'Beijing Capital', destination: 'LHR',
        destinationName: 'London Heathrow', departAt: '2026-12-20T13:35:00+08:00', arriveAt: '2026-12-21T01:10:00+00:00',
        cabin: 'economy', bookingClass: 'Y', durationMinutes: 695,
      },
    ],
    journeys: [{ segments: [0], origin: 'PEK', destination: 'LHR', departAt: '2026-12-20T13:35:00+08:00', arriveAt: '2026-12-21T01:10:00+00:00', durationMinutes: 695, stops: 0 }],
    priceDetail: {
      productType: 'normal',
      priceList: [
        { passengerType: 'adult', count: 1, fare: '1000.00', taxes: '234.50', price: '1234.50', salePrice: '1300.00', currency: 'CNY' },
        { passengerType: 'child', count: 1, fare: '750.00', taxes: '234.50', price: '984.50', salePrice: '1000.00', currency: 'CNY' },
      ],
    },
    total: { amount: '2300.00', currency: 'CNY' },
    ticketingSpeed: 'fast-standard',
    baggage: { checkedPieces: 1, checkedKg: 23, cabinPieces: 1, cabinKg: 7 },
    conditions: { refundable: true, refundFee: { amount: '200.00', currency: 'CNY' }, changeable: false },
    restrictions: { documents: ['passport', 'idcard'], eligibleCountries: [], ineligibleCountries: ['KP'] },
    ...over,
  };
}

function verification(status: Verification['status'], over: Partial<Verification> = {}): Env {
  return {
    code: 0,
    data: {
      status,
      quoteId: 'q1',
      solution: solution(),
      previousTotal: { amount: '2100.00', currency: 'CNY' },
      quoteExpiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
      ...over,
    },
  };
}

const payConfig: Env = {
  code: 0,
  data: {
    channels: [
      { channel: 'balance', kind: 'wallet' },
      { channel: 'alipay', kind: 'gateway' },
    ],
    paymentDisabled: false,
    balance: { amount: '5000.00', currency: 'CNY' },
    creditLimit: { amount: '1000.00', currency: 'CNY' },
    available: { amount: '6000.00', currency: 'CNY' },
  },
};

const often: Env = {
  code: 0,
  data: {
    items: [
      {
        id: 5, surname: 'LI', givenName: 'LEI', type: 'adult', gender: 'male', birthday: '1985-06-01', nationality: 'CN', phone: '13800000000',
        email: 'li@example.com', documentType: 'passport', documentNumber: 'E12345678', documentExpiry: '2030-01-01', documentIssuedAt: 'Beijing',
      },
      {
        id: 6, surname: 'LI', givenName: 'XIAO', type: 'child', gender: 'female', birthday: '2018-03-03', nationality: 'CN', phone: '',
        email: '', documentType: 'passport', documentNumber: 'E7654321', documentExpiry: '2029-05-05', documentIssuedAt: '',
      },
    ],
    total: 2,
    page: 1,
    pageSize: 100,
  },
};

const order = (status = 'to_be_paid'): Env => ({ code: 0, data: { id: 77, bookingNumber: 'VY2612200001', status, total: { amount: '2300.00', currency: 'CNY' }, actions: ['pay', 'cancel'] } });

const baseRoutes = () => ({
  [verifyPath]: verification('ok'),
  [configPath]: payConfig,
  [oftenPath]: often,
});

const props: FlightConfirmProps = { lang: 'en', solutionId: 's1_abc', currency: 'CNY', today: '2026-12-01', sessionKey: '7' };

function renderConfirm(p: Partial<FlightConfirmProps> = {}, i: i18n = en) {
  const navigate = vi.fn();
  const utils = render(
    <I18nContext.Provider value={i}>
      <FlightConfirm {...props} navigate={navigate} {...p} />
    </I18nContext.Provider>,
  );
  return { ...utils, navigate };
}

const pax = (n: number) => within(screen.getByRole('group', { name: new RegExp(`^Passenger ${n}:`) }));

async function pickCountry(scope: ReturnType<typeof within>, query: string, name: RegExp | string) {
  const box = scope.getByRole('combobox', { name: 'Nationality' });
  fireEvent.focus(box);
  fireEvent.change(box, { target: { value: query } });
  fireEvent.mouseDown(await scope.findByRole('option', { name }));
  return box as HTMLInputElement;
}

type PaxData = { surname: string; given: string; gender: 'Male' | 'Female'; birthday: string; country: [string, RegExp]; doc: string; number: string; expiry: string };

const adult: PaxData = { surname: 'zhang', given: 'san', gender: 'Male', birthday: '1990-01-31', country: ['china', /^People's Republic of China/], doc: 'Passport', number: 'e1234567', expiry: '2031-01-01' };
const child: PaxData = { surname: 'ZHANG', given: 'XIAO', gender: 'Female', birthday: '2018-05-05', country: ['china', /^People's Republic of China/], doc: 'Passport', number: 'E7654321', expiry: '2030-02-02' };

async function fillPassenger(n: number, d: PaxData) {
  const p = pax(n);
  fireEvent.change(p.getByRole('textbox', { name: 'Surname' }), { target: { value: d.surname } });
  fireEvent.change(p.getByRole('textbox', { name: 'Given names' }), { target: { value: d.given } });
  fireEvent.click(p.getByRole('radio', { name: d.gender }));
  fireEvent.change(p.getByRole('textbox', { name: 'Date of birth' }), { target: { value: d.birthday } });
  await pickCountry(p, d.country[0], d.country[1]);
  fireEvent.change(p.getByRole('combobox', { name: 'Document type' }), { target: { value: d.doc === 'Passport' ? 'passport' : 'idcard' } });
  fireEvent.change(p.getByRole('textbox', { name: 'Document number' }), { target: { value: d.number } });
  fireEvent.change(p.getByRole('textbox', { name: 'Document expiry date' }), { target: { value: d.expiry } });
}

function fillContact() {
  fireEvent.change(screen.getByRole('textbox', { name: 'Contact name' }), { target: { value: 'Wang Wu' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Contact email' }), { target: { value: 'wang@example.com' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Contact phone' }), { target: { value: '+86 138 0000 0000' } });
}

async function fillAll() {
  await fillPassenger(1, adult);
  await fillPassenger(2, child);
  fillContact();
}

async function ready() {
  await screen.findByRole('heading', { name: 'Passengers' });
  await waitFor(() => expect(screen.getByRole('button', { name: /^Book/ })).toHaveProperty('disabled', false));
}

// bookAndPay opens the page with routes over the base ones, fills it in
// and presses Book and pay.
async function bookAndPay(routes: Record<string, Route | Env | Env[]>) {
  const a = api({ ...baseRoutes(), ...routes });
  const { navigate } = renderConfirm();
  await ready();
  await fillAll();
  fireEvent.click(screen.getByRole('button', { name: /^Book and pay/ }));
  return { a, navigate };
}

// errorOf is the message aria-describedby ties to a field.
function errorOf(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
  return ids
    .map((id) => document.getElementById(id))
    .filter((x) => x?.classList.contains('field-error'))
    .map((x) => x!.textContent)
    .join(' ');
}

beforeEach(() => {
  window.sessionStorage.clear();
});


describe('rules', () => {
  it('counts ages on the first departure and types travellers by them', () => {
    expect(ageOn('2014-12-20', '2026-12-20')).toBe(12);
    expect(ageOn('2014-12-21', '2026-12-20')).toBe(11);
    expect(typeForAge(12)).toBe('adult');
    expect(typeForAge(11)).toBe('child');
    expect(typeForAge(2)).toBe('child');
    expect(typeForAge(1)).toBe('infant');
  });

  it('takes pasted dates in yyyy-mm-dd only', () => {
    expect(pastedDateOk(' 1990-01-31 ')).toBe(true);
    expect(pastedDateOk('1990/01/31')).toBe(false);
    expect(pastedDateOk('31-01-1990')).toBe(false);
    expect(pastedDateOk('1990-02-30')).toBe(false);
    expect(pastedDateOk('1800-01-01')).toBe(false);
  });

  it('filters documents and nationalities by the fare', () => {
    expect(documentChoices({ documents: [] })).toHaveLength(10);
    expect(documentChoices({ documents: ['all'] })).toHaveLength(10);
    expect(documentChoices({ documents: ['passport', 'idcard'] })).toEqual(['idcard', 'passport']);
    expect(nationalityAllowed('CN', { eligibleCountries: ['CN', 'HK'] })).toBe(true);
    expect(nationalityAllowed('US', { eligibleCountries: ['CN', 'HK'] })).toBe(false);
    expect(nationalityAllowed('KP', { ineligibleCountries: ['KP'] })).toBe(false);
    expect(nationalityAllowed('KP', {})).toBe(true);
  });

  it('maps server field names to the form and makes idempotency keys', () => {
    expect(fieldFor('passengers.1.surname', 2)).toBe('passengers.1.surname');
    expect(fieldFor('passengers[0].documentNumber', 2)).toBe('passengers.0.documentNumber');
    expect(fieldFor('passengers.0.type', 2)).toBe('passengers.0.birthday');
    expect(fieldFor('passengers.5.surname', 2)).toBe('');
    expect(fieldFor('contact.email', 2)).toBe('contact.email');
    expect(fieldFor('quoteId', 2)).toBe('');
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(times('1300.00', 2)).toBe('2600.00');
    expect(times('0.5', 3)).toBe('1.50');
  });
});

describe('FlightConfirm entry', () => {
  it('sends the user back to the search when the settlement currency changed', async () => {
    window.sessionStorage.setItem(storageKey, JSON.stringify({ v: 1, today: '2026-12-01', currency: 'USD', sessionKey: '7', session: { searchId: 's1' } }));
    const a = api(baseRoutes());
    const { navigate } = renderConfirm();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/booking?error=settlementCurrency'));
    expect(window.sessionStorage.getItem(storageKey)).toBeNull();
    expect(a.calls).toHaveLength(0);
  });

  it('sends the user back when the checked price is in another currency', async () => {
    window.sessionStorage.setItem(storageKey, JSON.stringify({ v: 1, currency: 'CNY', sessionKey: '7' }));
    api({ ...baseRoutes(), [verifyPath]: verification('ok', { solution: solution({ total: { amount: '300.00', currency: 'USD' } }) }) });
    const { navigate } = renderConfirm();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/booking?error=settlementCurrency'));
    expect(window.sessionStorage.getItem(storageKey)).toBeNull();
  });

  it('keeps a search in the same currency and goes straight to the form when the price is unchanged', async () => {
    window.sessionStorage.setItem(storageKey, JSON.stringify({ v: 1, currency: 'CNY', sessionKey: '7' }));
    const a = api(baseRoutes());
    const { navigate } = renderConfirm();
    expect(screen.getByText('Checking the latest price with the airline…')).toBeTruthy();
    await ready();
    expect(navigate).not.toHaveBeenCalled();
    expect(window.sessionStorage.getItem(storageKey)).not.toBeNull();
    expect(a.of(verifyPath)).toHaveLength(1);
    expect(a.of(verifyPath)[0].method).toBe('POST');
    expect(a.of(verifyPath)[0].headers['Accept-Language']).toBe('en');
    expect(a.of(oftenPath)[0].url).toBe('/base/v2/often-used-passengers?page=1&pageSize=100');

    // The summary: flights, baggage, conditions, price per passenger type.
    const summary = screen.getByRole('region', { name: 'Your flights' });
    const s = within(summary);
    expect(s.getByRole('rowheader', { name: /CA937/ })).toBeTruthy();
    expect(s.getByText('2026-12-20 13:35')).toBeTruthy();
    expect(s.getByText('2026-12-21 01:10 (+1 day)')).toBeTruthy();
    expect(s.getByText('Checked bags: 1 × 23 kg · Cabin bag: 1 × 7 kg')).toBeTruthy();
    expect(s.getByText('Refundable (fee 200.00 CNY)')).toBeTruthy();
    expect(s.getByText('No changes')).toBeTruthy();
    const prices = s.getByRole('table', { name: /Price details/ });
    const child = within(prices).getByRole('rowheader', { name: 'Children' }).closest('tr')!;
    expect(within(child).getByText('750.00')).toBeTruthy();
    expect(within(child).getAllByText('1,000.00 CNY')).toHaveLength(2);
    expect(within(prices).getByText('2,300.00 CNY')).toBeTruthy();

    // One form per traveller; the restrictions; the payment channels.
    expect(screen.getByRole('group', { name: /^Passenger 1: Adults/ })).toBeTruthy();
    expect(screen.getByRole('group', { name: /^Passenger 2: Children/ })).toBeTruthy();
    expect(screen.queryByRole('group', { name: /^Passenger 3/ })).toBeNull();
    expect(screen.getByText('Passport, National ID card')).toBeTruthy();
    expect(screen.getByText('Not for nationals of: North Korea')).toBeTruthy();
    expect(screen.getByRole('radio', { name: /Account balance/ })).toHaveProperty('checked', true);
    expect(screen.getByText(/Available: 6,000.00 CNY/)).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Alipay' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Book and pay 2,300.00 CNY' })).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toMatch(/^1[45]:\d\d$/);
  });

  it('follows the total and the amount to pay with their approximate figure in the footer currency', async () => {
    const m = document.createElement('meta');
    m.name = 'voyage-display-currency';
    m.content = 'USD';
    m.dataset.rates = JSON.stringify({ CNY: '1', USD: '7.1' });
    document.head.appendChild(m);
    try {
      api(baseRoutes());
      renderConfirm();
      await ready();
      // 2,300.00 CNY at 7.1 is 323.943…, rounded up.
      const total = screen.getByRole('table', { name: /Price details/ }).querySelector('tfoot td')!;
      expect(total.textContent).toBe('2,300.00 CNY ≈ USD 323.95');
      expect(total.querySelector('.approx')!.getAttribute('title')).toBe('Approximately, at the current exchange rate; you pay in CNY');
      expect(document.querySelector('.fc-total-line')!.textContent).toBe('Total: 2,300.00 CNY ≈ USD 323.95');
      // What is charged stays in the settlement currency.
      expect(screen.getByRole('button', { name: 'Book and pay 2,300.00 CNY' })).toBeTruthy();
    } finally {
      m.remove();
    }
  });

  it('speaks the page language', async () => {
    api(baseRoutes());
    renderConfirm({ lang: 'zh-cn' }, cn);
    expect(await screen.findByRole('heading', { name: '乘客' })).toBeTruthy();
    expect(screen.getByRole('group', { name: /^乘客 1：成人/ })).toBeTruthy();
  });
});

describe('FlightConfirm price check outcomes', () => {
  it('price changed: shows both totals; accept goes on to the form', async () => {
    api({ ...baseRoutes(), [verifyPath]: verification('price_changed') });
    const { navigate } = renderConfirm();
    const heading = await screen.findByRole('heading', { name: 'The price has changed' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText('2,100.00 CNY')).toBeTruthy();
    expect(screen.getByText('2,300.00 CNY')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Passengers' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Accept the new price' }));
    await ready();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('price changed: back to search', async () => {
    api({ ...baseRoutes(), [verifyPath]: verification('price_changed') });
    const { navigate } = renderConfirm();
    fireEvent.click(await screen.findByRole('button', { name: 'Back to search' }));
    expect(navigate).toHaveBeenCalledWith('/flight/booking');
  });

  it('package changed: shows the new package; accept or go back', async () => {
    const changed = solution({ baggage: { checkedPieces: 0, cabinPieces: 1, cabinKg: 7 }, conditions: { refundable: false, changeable: true, changeFee: { amount: '300', currency: 'CNY' } } });
    api({ ...baseRoutes(), [verifyPath]: verification('package_changed', { solution: changed }) });
    const { navigate } = renderConfirm();
    const panel = (await screen.findByRole('heading', { name: 'The fare package has changed' })).closest('section')!;
    expect(within(panel).getByText('No checked bag · Cabin bag: 1 × 7 kg')).toBeTruthy();
    expect(within(panel).getByText('Non-refundable')).toBeTruthy();
    expect(within(panel).getByText('Changes allowed (fee 300.00 CNY)')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Back to search' })).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Accept the new package' }));
    await ready();
    expect(screen.getByText('No checked bag · Cabin bag: 1 × 7 kg')).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('invalid: says so and only offers the way back', async () => {
    api({ ...baseRoutes(), [verifyPath]: { code: 0, data: { status: 'invalid', previousTotal: { amount: '2100.00', currency: 'CNY' } } } });
    const { navigate } = renderConfirm();
    expect(await screen.findByRole('heading', { name: 'This fare is no longer available' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
    expect(screen.getAllByRole('button')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Back to search' }));
    expect(navigate).toHaveBeenCalledWith('/flight/booking');
  });

  it('document restriction changed: keep the original package goes back to choose again', async () => {
    api({ ...baseRoutes(), [verifyPath]: verification('document_restriction_changed', { solution: solution({ restrictions: { documents: ['idcard'] } }) }) });
    const { navigate } = renderConfirm();
    expect(await screen.findByText(/This fare now accepts: National ID card\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep the original package' }));
    expect(navigate).toHaveBeenCalledWith('/flight/booking');
  });

  it('time-out: the server’s message, try again or go back', async () => {
    const a = api({ ...baseRoutes(), [verifyPath]: [{ code: 400003, message: 'Search request timed out', status: 504 }, verification('ok')] });
    const { navigate } = renderConfirm();
    expect(await screen.findByRole('heading', { name: 'The price check timed out' })).toBeTruthy();
    expect(screen.getByText('Search request timed out')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to search' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await ready();
    expect(a.of(verifyPath)).toHaveLength(2);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('stale search and unknown solution: back to the search only', async () => {
    api({ ...baseRoutes(), [verifyPath]: { code: 400002, message: 'The prices may have changed, please search again', status: 409 } });
    let r = renderConfirm();
    expect(await screen.findByRole('heading', { name: 'Your search has expired' })).toBeTruthy();
    expect(screen.getByText('The prices may have changed, please search again')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to search' }));
    expect(r.navigate).toHaveBeenCalledWith('/flight/booking');
    cleanup();

    api({ ...baseRoutes(), [verifyPath]: { code: 100004, message: 'This booking does not exist', status: 404 } });
    r = renderConfirm();
    expect(await screen.findByRole('heading', { name: 'This flight is no longer in your search' })).toBeTruthy();
    expect(screen.getByText('This booking does not exist')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('when the quote runs out: says so, blocks booking, and checks again; new document rules clear the passengers', async () => {
    const soon = () => new Date(Date.now() + 200).toISOString();
    const a = api({
      ...baseRoutes(),
      [verifyPath]: [
        verification('ok', { quoteExpiresAt: soon() }),
        verification('document_restriction_changed', { quoteId: 'q2', solution: solution({ restrictions: { documents: ['passport'] } }) }),
      ],
    });
    const { navigate } = renderConfirm();
    await ready();
    fireEvent.change(pax(1).getByRole('textbox', { name: 'Surname' }), { target: { value: 'zhang' } });
    fillContact();
    expect(await screen.findByText('The price hold has ended', {}, { timeout: 2000 })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Check the price again');
    expect(screen.getByRole('button', { name: /^Book/ })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getAllByRole('button', { name: 'Check the price again' })[0]);
    expect(await screen.findByRole('heading', { name: 'The accepted travel documents have changed' })).toBeTruthy();
    expect(a.of(verifyPath)).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Proceed (clears the passenger information)' }));
    await ready();
    expect((pax(1).getByRole('textbox', { name: 'Surname' }) as HTMLInputElement).value).toBe('');
    // The contact is not a passenger's: it stays.
    expect((screen.getByRole('textbox', { name: 'Contact name' }) as HTMLInputElement).value).toBe('Wang Wu');
    const docs = within(pax(1).getByRole('combobox', { name: 'Document type' })).getAllByRole('option').map((o) => o.textContent);
    expect(docs).toEqual(['Please choose', 'Passport']);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('FlightConfirm passenger rules', () => {
  it('checks every field before booking and ties each message to its field', async () => {
    const a = api(baseRoutes());
    renderConfirm();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: /^Book/ }));
    expect(await screen.findByText('Please correct the 19 fields marked below.')).toBeTruthy();
    expect(a.of(ordersPath)).toHaveLength(0);
    const surname = pax(1).getByRole('textbox', { name: 'Surname' });
    expect(surname.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(surname)).toBe('Please enter the surname');
    await waitFor(() => expect(document.activeElement).toBe(surname));
    expect(errorOf(pax(1).getByRole('textbox', { name: 'Given names' }))).toBe('Please enter the given name');
    expect(errorOf(pax(1).getByRole('radio', { name: 'Male' }))).toBe('Please choose the gender');
    expect(errorOf(pax(1).getByRole('textbox', { name: 'Date of birth' }))).toBe('Please enter the date of birth');
    expect(errorOf(pax(1).getByRole('combobox', { name: 'Nationality' }))).toBe('Please choose the nationality');
    expect(errorOf(pax(1).getByRole('combobox', { name: 'Document type' }))).toBe('Please choose the document type');
    expect(errorOf(pax(1).getByRole('textbox', { name: 'Document number' }))).toBe('Please enter the document number');
    expect(errorOf(pax(1).getByRole('textbox', { name: 'Document expiry date' }))).toBe('Please enter the document expiry date');
    expect(errorOf(screen.getByRole('textbox', { name: 'Contact email' }))).toBe('Please enter the contact email');

    // Typing into a field clears its message.
    fireEvent.change(surname, { target: { value: 'zh' } });
    expect(surname.getAttribute('aria-invalid')).toBeNull();
  });

  it('keeps surnames to A–Z in capitals, birthdays not after today, and contact emails well-formed', async () => {
    api(baseRoutes());
    renderConfirm();
    await ready();
    await fillAll();
    const surname = pax(1).getByRole('textbox', { name: 'Surname' }) as HTMLInputElement;
    expect(surname.value).toBe('ZHANG');
    fireEvent.change(surname, { target: { value: 'zhang-san' } });
    fireEvent.change(pax(1).getByRole('textbox', { name: 'Date of birth' }), { target: { value: '2026-12-02' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Contact email' }), { target: { value: 'wang@' } });
    fireEvent.click(screen.getByRole('button', { name: /^Book/ }));
    expect(await screen.findByText('Please correct the 3 fields marked below.')).toBeTruthy();
    expect(errorOf(surname)).toBe('The surname may only contain the letters A-Z');
    expect(errorOf(pax(1).getByRole('textbox', { name: 'Date of birth' }))).toBe('The date of birth cannot be after today');
    expect(errorOf(screen.getByRole('textbox', { name: 'Contact email' }))).toBe('Email format error');
  });

  it('refuses a pasted birthday that is not yyyy-mm-dd and takes one that is', async () => {
    api(baseRoutes());
    renderConfirm();
    await ready();
    const birthday = pax(1).getByRole('textbox', { name: 'Date of birth' }) as HTMLInputElement;
    fireEvent.paste(birthday, { clipboardData: { getData: () => '31/01/1990' } });
    const msg = 'A pasted date must be in yyyy-mm-dd format, for example 1990-01-31.';
    expect(errorOf(birthday)).toBe(msg);
    expect(birthday.value).toBe('');
    await waitFor(() => expect(screen.getByText(msg, { selector: '[role="status"]' })).toBeTruthy());
    fireEvent.paste(birthday, { clipboardData: { getData: () => ' 1990-01-31 ' } });
    expect(birthday.value).toBe('1990-01-31');
    expect(birthday.getAttribute('aria-invalid')).toBeNull();
  });

  it('types each traveller by age on the first flight, and the form’s type must match', async () => {
    api(baseRoutes());
    renderConfirm();
    await ready();
    // A child on 2026-12-20 booked as the adult; a 12-year-old (since the
    // day of the flight) booked as the child.
    await fillPassenger(1, { ...adult, birthday: '2016-01-01' });
    await fillPassenger(2, { ...child, birthday: '2014-12-20' });
    fillContact();
    fireEvent.click(screen.getByRole('button', { name: /^Book/ }));
    expect(await screen.findByText('Please correct the 2 fields marked below.')).toBeTruthy();
    expect(errorOf(pax(1).getByRole('textbox', { name: 'Date of birth' }))).toBe(
      'On the first flight (2026-12-20) this passenger will be a child (2 to 11), but this place is booked for an adult (12 or over). Please check the date of birth.',
    );
    expect(errorOf(pax(2).getByRole('textbox', { name: 'Date of birth' }))).toContain('will be an adult (12 or over), but this place is booked for a child (2 to 11)');
  });

  it('offers only the documents the fare takes, and checks nationality and expiry', async () => {
    api({ ...baseRoutes(), [verifyPath]: verification('ok', { solution: solution({ restrictions: { documents: ['passport'], eligibleCountries: ['CN', 'HK'], ineligibleCountries: [] } }) }) });
    renderConfirm();
    await ready();
    const docs = within(pax(1).getByRole('combobox', { name: 'Document type' })).getAllByRole('option').map((o) => o.getAttribute('value'));
    expect(docs).toEqual(['', 'passport']);
    expect(screen.getByText("Only for nationals of: People's Republic of China, Hong Kong")).toBeTruthy();
    await fillPassenger(1, { ...adult, country: ['japan', /^Japan/], expiry: '2026-12-20' });
    await fillPassenger(2, child);
    fillContact();
    fireEvent.click(screen.getByRole('button', { name: /^Book/ }));
    expect(await screen.findByText('Please correct the 2 fields marked below.')).toBeTruthy();
    expect(errorOf(pax(1).getByRole('combobox', { name: 'Nationality' }))).toBe('Passengers of this nationality cannot travel on this fare');
    expect(errorOf(pax(1).getByRole('textbox', { name: 'Document expiry date' }))).toBe('The document must still be valid after the last flight on 2026-12-20');
  });

  it('fills a form from an often-used passenger', async () => {
    api(baseRoutes());
    renderConfirm();
    await ready();
    const p = pax(1);
    const picker = p.getByRole('combobox', { name: 'Fill from a saved traveller' });
    await waitFor(() => expect(picker).toHaveProperty('disabled', false));
    const options = within(picker).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Choose a traveller…', 'LI/LEI · Adults · 1985-06-01', 'LI/XIAO · Children · 2018-03-03']);
    fireEvent.change(picker, { target: { value: '5' } });
    expect((p.getByRole('textbox', { name: 'Surname' }) as HTMLInputElement).value).toBe('LI');
    expect((p.getByRole('textbox', { name: 'Given names' }) as HTMLInputElement).value).toBe('LEI');
    expect(p.getByRole('radio', { name: 'Male' })).toHaveProperty('checked', true);
    expect((p.getByRole('textbox', { name: 'Date of birth' }) as HTMLInputElement).value).toBe('1985-06-01');
    await waitFor(() => expect((p.getByRole('combobox', { name: 'Nationality' }) as HTMLInputElement).value).toBe("People's Republic of China"));
    expect((p.getByRole('combobox', { name: 'Document type' }) as HTMLSelectElement).value).toBe('passport');
    expect((p.getByRole('textbox', { name: 'Document number' }) as HTMLInputElement).value).toBe('E12345678');
    expect((p.getByRole('textbox', { name: 'Document expiry date' }) as HTMLInputElement).value).toBe('2030-01-01');
    expect((p.getByRole('textbox', { name: 'Place of issue (optional)' }) as HTMLInputElement).value).toBe('Beijing');
    // The same passenger cannot fill a second form.
    const second = within(pax(2).getByRole('combobox', { name: 'Fill from a saved traveller' }));
    expect(second.getByRole('option', { name: /LI\/LEI/ })).toHaveProperty('disabled', true);
  });

  it('links the saved-traveller pages from the picker', async () => {
    api(baseRoutes());
    renderConfirm();
    await ready();
    expect(pax(1).getByRole('link', { name: 'Manage saved travellers' }).getAttribute('href')).toBe('/profile/travellers');
  });

  it('scans a passport into a passenger after the user checks it', async () => {
    const a = api({
      ...baseRoutes(),
      'POST /base/v2/analysis/document': {
        code: 0,
        data: {
          type: 'chinese-passport', travel_document: 'E12345678', surname: 'ZHANG', given_names: 'SAN FENG', nationality: 'CHN', birthday: '1985-05-12',
          gender: 'male', expiry: '2030-03-15', issuing_country: 'CHN', confidence: 0.97,
        },
      },
    });
    renderConfirm();
    await ready();
    const p = pax(1);
    fireEvent.click(p.getByRole('button', { name: /^Scan document/ }));
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'passport.png', { type: 'image/png' });
    fireEvent.change(p.getByLabelText("Photo of the document's data page"), { target: { files: [file] } });
    expect(await p.findByText('Confidence 97%')).toBeTruthy();
    // Nothing is filled before the user confirms.
    expect((p.getByRole('textbox', { name: 'Surname' }) as HTMLInputElement).value).toBe('');
    const sent = a.of('/base/v2/analysis/document')[0];
    expect(sent.method).toBe('POST');
    expect((sent.body as FormData).get('file')).toBeInstanceOf(File);
    fireEvent.click(p.getByRole('button', { name: 'Fill the form' }));
    expect((p.getByRole('textbox', { name: 'Surname' }) as HTMLInputElement).value).toBe('ZHANG');
    expect((p.getByRole('textbox', { name: 'Given names' }) as HTMLInputElement).value).toBe('SAN FENG');
    expect(p.getByRole('radio', { name: 'Male' })).toHaveProperty('checked', true);
    expect((p.getByRole('textbox', { name: 'Date of birth' }) as HTMLInputElement).value).toBe('1985-05-12');
    expect((p.getByRole('combobox', { name: 'Document type' }) as HTMLSelectElement).value).toBe('passport');
    expect((p.getByRole('textbox', { name: 'Document number' }) as HTMLInputElement).value).toBe('E12345678');
    expect((p.getByRole('textbox', { name: 'Document expiry date' }) as HTMLInputElement).value).toBe('2030-03-15');
    await waitFor(() => expect((p.getByRole('combobox', { name: 'Nationality' }) as HTMLInputElement).value).toBe("People's Republic of China"));
    // The second passenger is untouched.
    expect((pax(2).getByRole('textbox', { name: 'Surname' }) as HTMLInputElement).value).toBe('');
  });

  it('imports DOCS into the passengers of their types, with the fare\'s limits', async () => {
    const a = api({
      ...baseRoutes(),
      'POST /base/v2/analysis/docs': [
        { code: 100001, message: 'Validation failed', data: { fields: { text: 'The ID-card DOCS of ZHANG/SAN cannot be imported: international orders need a passport' } } },
        {
          code: 0,
          data: {
            passengers: [
              { surname: 'WANG', givenName: 'XIAO', type: 'child', gender: 'male', birthday: '2019-01-01', nationality: 'CN', documentType: 'passport', documentNumber: 'E7654322', documentExpiry: '2031-01-01' },
              { surname: 'WANG', givenName: 'WU', type: 'adult', gender: 'female', birthday: '1990-01-01', nationality: 'CN', documentType: 'passport', documentNumber: 'E7654321', documentExpiry: '2031-01-01' },
            ],
          },
        },
      ],
    });
    renderConfirm();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Import from DOCS' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'DOCS lines' }), { target: { value: 'SSR DOCS CA HK1 I/CN/1101/CN/12MAY85/M/15MAR30/ZHANG/SAN' } });
    fireEvent.click(screen.getByRole('button', { name: 'Fill the passengers' }));
    expect(await screen.findByText('The ID-card DOCS of ZHANG/SAN cannot be imported: international orders need a passport')).toBeTruthy();
    expect(a.of('/base/v2/analysis/docs')[0].body).toEqual({
      text: 'SSR DOCS CA HK1 I/CN/1101/CN/12MAY85/M/15MAR30/ZHANG/SAN', documents: ['passport', 'idcard'], international: false, airports: ['PEK', 'LHR'],
    });
    expect((pax(1).getByRole('textbox', { name: 'Surname' }) as HTMLInputElement).value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Fill the passengers' }));
    expect(await screen.findByText('2 passengers filled from DOCS')).toBeTruthy();
    expect((pax(1).getByRole('textbox', { name: 'Given names' }) as HTMLInputElement).value).toBe('WU');
    expect((pax(2).getByRole('textbox', { name: 'Given names' }) as HTMLInputElement).value).toBe('XIAO');
    expect((pax(2).getByRole('textbox', { name: 'Document number' }) as HTMLInputElement).value).toBe('E7654322');
  });
});

describe('FlightConfirm booking and payment', () => {
  it('books with one Idempotency-Key, pays, and goes to the order', async () => {
    const a = api({
      ...baseRoutes(),
      [`POST ${ordersPath}`]: [{ code: -1, status: 502 }, order()],
      [payPath]: { code: 0, data: { id: 77, bookingNumber: 'VY2612200001', status: 'proceeding' } },
    });
    const { navigate } = renderConfirm();
    await ready();
    await fillAll();
    fireEvent.change(screen.getByRole('combobox', { name: 'Invoice type' }), { target: { value: 'Itinerary' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Remark (optional)' }), { target: { value: 'window seats please' } });
    fireEvent.click(screen.getByRole('button', { name: /^Book and pay/ }));
    // The first try gets no envelope back: said, and the retry reuses the key.
    expect(await screen.findByText('Network Error, please check your connection')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Book and pay/ }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/orders/77'));
    const posts = a.of(ordersPath);
    expect(posts).toHaveLength(2);
    const key = posts[0].headers['Idempotency-Key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1].headers['Idempotency-Key']).toBe(key);
    expect(posts[1].body).toEqual({
      quoteId: 'q1',
      solutionId: 's1_abc',
      passengers: [
        {
          type: 'adult', surname: 'ZHANG', givenName: 'SAN', gender: 'male', birthday: '1990-01-31', nationality: 'CN', documentType: 'passport',
          documentNumber: 'E1234567', documentExpiry: '2031-01-01', documentIssuedAt: '', phone: '', email: '', frequentFlyer: '', ffAirline: '',
        },
        {
          type: 'child', surname: 'ZHANG', givenName: 'XIAO', gender: 'female', birthday: '2018-05-05', nationality: 'CN', documentType: 'passport',
          documentNumber: 'E7654321', documentExpiry: '2030-02-02', documentIssuedAt: '', phone: '', email: '', frequentFlyer: '', ffAirline: '',
        },
      ],
      contact: { name: 'Wang Wu', email: 'wang@example.com', phone: '+86 138 0000 0000' },
      invoiceType: 'Itinerary',
      remark: 'window seats please',
    });
    const pays = a.of(payPath);
    expect(pays).toHaveLength(1);
    expect(pays[0].body).toEqual({ channel: 'balance' });
    expect(pays[0].headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(pays[0].headers['Idempotency-Key']).not.toBe(key);
  });

  it('shows the server’s field errors (100001) at their fields', async () => {
    const { a, navigate } = await bookAndPay({
      [`POST ${ordersPath}`]: {
        code: 100001,
        message: 'Some fields need your attention.',
        data: { fields: { 'passengers[1].documentNumber': 'This document number is already booked on this flight', 'contact.email': 'This email cannot receive mail', quoteId: 'The quote belongs to another agency' } },
      },
    });
    const number = pax(2).getByRole('textbox', { name: 'Document number' });
    await waitFor(() => expect(errorOf(number)).toBe('This document number is already booked on this flight'));
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(screen.getByRole('textbox', { name: 'Contact email' }))).toBe('This email cannot receive mail');
    const summary = screen.getByRole('alert');
    expect(summary.textContent).toContain('Please correct the 2 fields marked below.');
    expect(summary.textContent).toContain('The quote belongs to another agency');
    await waitFor(() => expect(document.activeElement).toBe(number));
    expect(a.of(payPath)).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('keeps the user on the page with the order when the balance is short (300001), and pays again', async () => {
    const { a, navigate } = await bookAndPay({
      [`POST ${ordersPath}`]: order(),
      [payPath]: [
        { code: 300001, message: 'Insufficient Account Balance', status: 422 },
        { code: 0, data: { id: 77, bookingNumber: 'VY2612200001', status: 'proceeding' } },
      ],
    });
    expect(await screen.findByText('Insufficient Account Balance')).toBeTruthy();
    const heading = screen.getByRole('heading', { name: 'Order VY2612200001 has been created' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole('link', { name: 'Pay later from the order page' }).getAttribute('href')).toBe('/flight/orders/77');
    expect(navigate).not.toHaveBeenCalled();
    // The form is locked: the order exists.
    expect(pax(1).getByRole('textbox', { name: 'Surname' }).closest('fieldset[disabled]')).not.toBeNull();
    expect(screen.queryByRole('button', { name: /^Book and pay/ })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Alipay' }));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/orders/77'));
    expect(a.of(ordersPath)).toHaveLength(1);
    const pays = a.of(payPath);
    expect(pays.map((p) => p.body.channel)).toEqual(['balance', 'alipay']);
    expect(pays[1].headers['Idempotency-Key']).not.toBe(pays[0].headers['Idempotency-Key']);
  });

  it('shows a failed or timed-out payment and retries a time-out with the same key', async () => {
    const { a, navigate } = await bookAndPay({
      [`POST ${ordersPath}`]: order(),
      [payPath]: [
        { code: 300002, message: 'Timeout', status: 504 },
        { code: 300002, message: 'Pay Fail', status: 422 },
      ],
    });
    expect(await screen.findByText('Timeout')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    expect(await screen.findByText('Pay Fail')).toBeTruthy();
    const pays = a.of(payPath);
    expect(pays).toHaveLength(2);
    expect(pays[1].headers['Idempotency-Key']).toBe(pays[0].headers['Idempotency-Key']);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('only books when the agency may not pay, and says so', async () => {
    const a = api({ ...baseRoutes(), [configPath]: { code: 0, data: { channels: [{ channel: 'balance', kind: 'wallet' }], paymentDisabled: true } }, [`POST ${ordersPath}`]: order() });
    const { navigate } = renderConfirm();
    await screen.findByRole('heading', { name: 'Passengers' });
    expect(await screen.findByText(/Payment is disabled for your agency/)).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /Account balance/ })).toBeNull();
    await fillAll();
    fireEvent.click(screen.getByRole('button', { name: 'Book' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/orders/77'));
    expect(a.of(payPath)).toHaveLength(0);
  });

  it('does not pay an order that waits for a review', async () => {
    const a = api({ ...baseRoutes(), [`POST ${ordersPath}`]: order('reviewing') });
    const { navigate } = renderConfirm();
    await ready();
    await fillAll();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^Book and pay/ }));
    });
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/orders/77'));
    expect(a.of(payPath)).toHaveLength(0);
  });

  it('asks to check the price again when the quote expired on the server', async () => {
    const { a } = await bookAndPay({ [`POST ${ordersPath}`]: { code: 400002, message: 'The quote has expired', status: 409 } });
    expect(await screen.findByText('The price hold has ended')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Check the price again' })[0]);
    await ready();
    expect(a.of(verifyPath)).toHaveLength(2);
    expect((pax(1).getByRole('textbox', { name: 'Surname' }) as HTMLInputElement).value).toBe('ZHANG');
  });
});
