import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { TrainBooking, type TrainBookingProps } from './TrainBooking';
import { I18nContext } from './useT';
import { bothLanguages, fakeApi, routes, type Env, type Route } from './testing';
import { filterTrains, salesDates, sortTrains, emptyFilters } from './train/results';
import { idCardValid, serverField } from './train/form';
import type { Train } from './train/types';

let en: i18n;
let cn: i18n;

beforeAll(async () => ({ en, cn } = await bothLanguages()));


// api fakes the agency API from routes (testing.ts), named "METHOD path".
// The train API answers a refusal other than a validation error 409.
function api(table: Record<string, Route | Env | Env[]>) {
  const calls = fakeApi(routes(table), (env) => (env.code === 0 ? 200 : env.code === 100001 ? 400 : 409));
  return { calls, of: (m: string, path: string) => calls.filter((c) => c.method === m && c.path === path) };
}

const stations: Record<string, unknown[]> = {
  beijing: [{ code: 'VNP', name: 'Beijing South', city: 'Beijing', country: 'CN' }],
  bjn: [{ code: 'VNP', name: 'Beijing South', city: 'Beijing', country: 'CN' }],
  shanghai: [
    { code: 'AOH', name: 'Shanghai Hongqiao', city: 'Shanghai', country: 'CN' },
    { code: 'SHH', name: 'Shanghai', city: 'Shanghai', country: 'CN' },
  ],
};

function stationRoute(_: unknown, url: string): Env {
  const q = new URL(url, 'http://x').searchParams.get('q') || '';
  return { code: 0, data: stations[q.toLowerCase()] || [] };
}

const money = (amount: string) => ({ amount, currency: 'CNY' });

function train(id: string, number: string, type: string, depart: string, arrive: string, minutes: number, second: [string, number], first?: [string, number]): Train {
  const seats = [{ class: 'second', price: money(second[0]), available: second[1] }];
  if (first) seats.push({ class: 'first', price: money(first[0]), available: first[1] });
  return {
    id, trainNumber: number, trainType: type, origin: 'VNP', originName: 'Beijing South', destination: 'AOH', destinationName: 'Shanghai Hongqiao',
    departAt: `2026-12-02T${depart}:00+08:00`, arriveAt: `2026-12-02T${arrive}:00+08:00`, durationMinutes: minutes,
    stops: [{ station: 'VNP' }, { station: 'NJH', name: 'Nanjing South', arrive: `2026-12-02T10:00:00+08:00`, depart: `2026-12-02T10:02:00+08:00` }, { station: 'AOH' }],
    seats,
  };
}

const trains = [
  train('o1', 'G1', 'G', '09:00', '13:28', 268, ['553.00', 120], ['933.00', 0]),
  train('o2', 'D711', 'D', '19:30', '07:20', 710, ['409.00', 0]),
  train('o3', 'G7', 'G', '07:00', '12:00', 300, ['520.00', 30]),
];

const props: TrainBookingProps = { lang: 'en', today: '2026-12-01', debounceMs: 0, pollMs: 5 };

function renderBooking(i: i18n = en) {
  return render(
    <I18nContext.Provider value={i}>
      <TrainBooking {...props} />
    </I18nContext.Provider>,
  );
}

async function pick(label: string, query: string, option: RegExp) {
  const box = screen.getByRole('combobox', { name: label });
  fireEvent.change(box, { target: { value: query } });
  fireEvent.mouseDown(await screen.findByRole('option', { name: option }));
}

async function searchBeijingShanghai(a: ReturnType<typeof api>, adults = 1) {
  await pick('From', 'beijing', /Beijing South/);
  await pick('To', 'shanghai', /Shanghai Hongqiao/);
  fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-12-02' } });
  fireEvent.change(screen.getByLabelText('Adults'), { target: { value: String(adults) } });
  fireEvent.click(screen.getByRole('button', { name: 'Search trains' }));
  await screen.findByText(/of 3 trains/);
  return a;
}

describe('train search rules', () => {
  it('offers the 15 on-sale dates only', () => {
    const d = salesDates('2026-12-25', 15);
    expect(d).toHaveLength(15);
    expect(d[0]).toBe('2026-12-25');
    expect(d[14]).toBe('2027-01-08');
  });

  it('filters by type, departure time and seat class, and sorts', () => {
    const f = emptyFilters();
    expect(filterTrains(trains, { ...f, types: ['D'] }).map((t) => t.trainNumber)).toEqual(['D711']);
    expect(filterTrains(trains, { ...f, times: ['6-12'] }).map((t) => t.trainNumber)).toEqual(['G1', 'G7']);
    expect(filterTrains(trains, { ...f, classes: ['first'] }).map((t) => t.trainNumber)).toEqual(['G1']);
    expect(filterTrains(trains, { ...f, classes: ['first'], availableOnly: true })).toEqual([]);
    expect(sortTrains(trains, 'departure').map((t) => t.trainNumber)).toEqual(['G7', 'G1', 'D711']);
    expect(sortTrains(trains, 'duration').map((t) => t.trainNumber)).toEqual(['G1', 'G7', 'D711']);
    expect(sortTrains(trains, 'price').map((t) => t.trainNumber)).toEqual(['D711', 'G7', 'G1']);
  });

  it('checks a resident ID number and maps server field names', () => {
    expect(idCardValid('11010519491231002X')).toBe(true);
    expect(idCardValid('110105194912310021')).toBe(false);
    expect(serverField('passengers[1].documentNumber', 2)).toBe('passengers.1.documentNumber');
    expect(serverField('passengers.5.surname', 2)).toBe('');
    expect(serverField('contact.phone', 2)).toBe('contact.phone');
  });
});

// A loaded machine renders slowly: these tests drive many renders.
const slow = 30_000;

describe('TrainBooking', () => {
  it('refuses a search without stations or with the same station twice, before asking the server', async () => {
    const a = api({ 'GET /shopping/v2/train/stations': stationRoute });
    renderBooking();
    fireEvent.click(screen.getByRole('button', { name: 'Search trains' }));
    expect(await screen.findAllByText('Choose a station from the list')).toHaveLength(2);
    await pick('From', 'beijing', /Beijing South/);
    await pick('To', 'bjn', /Beijing South/);
    fireEvent.click(screen.getByRole('button', { name: 'Search trains' }));
    expect(await screen.findByText('Origin and destination must differ')).toBeTruthy();
    expect(a.of('POST', '/shopping/v2/train/search')).toHaveLength(0);
  }, slow);

  it('picks a station with the keyboard', async () => {
    api({ 'GET /shopping/v2/train/stations': stationRoute });
    renderBooking();
    const box = screen.getByRole('combobox', { name: 'To' });
    fireEvent.change(box, { target: { value: 'shanghai' } });
    await screen.findByRole('option', { name: /Shanghai Hongqiao/ });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((box as HTMLInputElement).value).toBe('Shanghai (SHH)');
  }, slow);

  it('shows the trains with their classes, sold out marked, filters and sorts them', async () => {
    const a = api({ 'GET /shopping/v2/train/stations': stationRoute, 'POST /shopping/v2/train/search': { code: 0, data: { items: trains } } });
    renderBooking();
    await searchBeijingShanghai(a);
    expect(a.of('POST', '/shopping/v2/train/search')[0].body).toEqual({ origin: 'VNP', destination: 'AOH', date: '2026-12-02', passengers: { adult: 1, child: 0 } });
    const cards = () => screen.getAllByRole('listitem').filter((li) => li.classList.contains('tb-train'));
    expect(cards().map((c) => c.dataset.train)).toEqual(['G7', 'G1', 'D711']);
    const g1 = cards()[1];
    expect(within(g1).getByText('High-speed (G)')).toBeTruthy();
    expect(within(g1).getByText('04h28m')).toBeTruthy();
    expect(within(g1).getByText('553.00 CNY')).toBeTruthy();
    expect(within(g1).getByText('120 left')).toBeTruthy();
    expect(within(g1).getByText('Sold out')).toBeTruthy();
    expect((within(g1).getByRole('button', { name: 'Book First class on G1' }) as HTMLButtonElement).disabled).toBe(true);
    // The stops open from the card.
    fireEvent.click(within(g1).getByRole('button', { name: '1 stops' }));
    expect(within(g1).getByText('Nanjing South')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'price' } });
    expect(cards().map((c) => c.dataset.train)).toEqual(['D711', 'G7', 'G1']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'EMU (D)' }));
    expect(cards().map((c) => c.dataset.train)).toEqual(['D711']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'EMU (D)' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '18:00–24:00' }));
    expect(cards().map((c) => c.dataset.train)).toEqual(['D711']);
    fireEvent.click(screen.getByRole('checkbox', { name: '18:00–24:00' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'First class' }));
    expect(cards().map((c) => c.dataset.train)).toEqual(['G1']);
  }, slow);

  it('shows a translated search refusal from the API', async () => {
    const a = api({
      'GET /shopping/v2/train/stations': stationRoute,
      'POST /shopping/v2/train/search': { code: 100001, message: 'Date outside the sales window', data: { fields: { date: 'Date outside the sales window' } } },
    });
    renderBooking();
    await pick('From', 'beijing', /Beijing South/);
    await pick('To', 'shanghai', /Shanghai Hongqiao/);
    fireEvent.click(screen.getByRole('button', { name: 'Search trains' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getAllByText('Date outside the sales window').length).toBeGreaterThan(0);
    expect(a.of('POST', '/shopping/v2/train/search')).toHaveLength(1);
  }, slow);

  it('books two passengers in second class with a seat letter, shows the hold, pays with a key and follows to the tickets', async () => {
    const hold = new Date(Date.now() + 30 * 60_000).toISOString();
    const order = { id: 42, bookingNumber: 'T2612010001', status: 'to_be_paid', holdExpiresAt: hold, total: money('1106.00'), passengers: [{ id: 1, surname: 'ZHANG', givenName: 'WEI' }, { id: 2, surname: 'LI', givenName: 'NA' }] };
    const issued = { ...order, status: 'issued', tickets: [{ passenger: 1, coach: '05', seat: '12A', ticketNumber: 'E123', status: 'issued' }, { passenger: 2, passengerName: 'LI NA', coach: '05', seat: '12B', ticketNumber: 'E124', status: 'issued' }] };
    const a = api({
      'GET /shopping/v2/train/stations': stationRoute,
      'POST /shopping/v2/train/search': { code: 0, data: { items: trains } },
      'POST /order/v2/train/orders': [
        { code: 100001, message: 'Validation failed', data: { fields: { 'passengers[1].documentNumber': 'The document number does not match the name' } } },
        { code: 0, data: order },
      ],
      'POST /order/v2/train/orders/42/payment': { code: 0, data: { ...order, status: 'proceeding' } },
      'GET /order/v2/train/orders/42': [{ code: 0, data: { ...order, status: 'proceeding' } }, { code: 0, data: issued }],
    });
    const display = document.createElement('meta');
    display.name = 'voyage-display-currency';
    display.content = 'USD';
    display.dataset.rates = JSON.stringify({ CNY: '1', USD: '7.1' });
    document.head.appendChild(display);
    onTestFinished(() => display.remove());
    renderBooking();
    await searchBeijingShanghai(a, 2);
    fireEvent.click(screen.getByRole('button', { name: 'Book Second class on G1' }));
    expect(await screen.findByText('Passenger 1')).toBeTruthy();
    expect(screen.getByText('Passenger 2')).toBeTruthy();

    // Nothing is sent while a field is wrong.
    fireEvent.click(screen.getByRole('button', { name: 'Book and hold seats' }));
    expect(await screen.findByText('Check the fields marked below')).toBeTruthy();
    expect(a.of('POST', '/order/v2/train/orders')).toHaveLength(0);

    const fill = (i: number, surname: string, given: string, doc: string, gender: string) => {
      fireEvent.change(document.getElementById(`fc-passengers-${i}-surname`)!, { target: { value: surname } });
      fireEvent.change(document.getElementById(`fc-passengers-${i}-givenName`)!, { target: { value: given } });
      fireEvent.click(within(screen.getByText(`Passenger ${i + 1}`).closest('fieldset')!).getByRole('radio', { name: gender }));
      fireEvent.change(document.getElementById(`fc-passengers-${i}-birthday`)!, { target: { value: '1990-05-01' } });
      fireEvent.change(document.getElementById(`fc-passengers-${i}-documentNumber`)!, { target: { value: doc } });
    };
    fill(0, 'zhang', 'wei', '11010519491231002X', 'Male');
    fill(1, 'li', 'na', '11010519491231002X', 'Female');
    fireEvent.change(document.getElementById('fc-passengers-1-type')!, { target: { value: 'student' } });
    fireEvent.click(within(screen.getByText('Passenger 1').closest('fieldset')!).getByRole('radio', { name: 'A · window' }));
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Zhang Wei' } });
    fireEvent.change(screen.getByLabelText(/^Phone/), { target: { value: '13800138000' } });

    // The server's field error lands beside its field.
    fireEvent.click(screen.getByRole('button', { name: 'Book and hold seats' }));
    expect(await screen.findByText('The document number does not match the name')).toBeTruthy();
    const doc1 = document.getElementById('fc-passengers-1-documentNumber')!;
    expect(doc1.getAttribute('aria-invalid')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Book and hold seats' }));
    expect(await screen.findByRole('heading', { name: 'Booking T2612010001' })).toBeTruthy();
    // The total, and with US dollars in the footer its approximate figure:
    // 1,106.00 CNY at 7.1 is 155.774…, rounded up.
    expect(screen.getByText('1,106.00 CNY').parentElement!.textContent).toBe('Total: 1,106.00 CNY ≈ USD 155.78');
    const posts = a.of('POST', '/order/v2/train/orders');
    expect(posts).toHaveLength(2);
    const req = posts[1].body;
    expect(req.offerId).toBe('o1');
    expect(req.seatClass).toBe('second');
    expect(req.passengers[0]).toMatchObject({ type: 'adult', surname: 'ZHANG', givenName: 'WEI', gender: 'male', documentType: 'id_card', nationality: 'CN', seatLetter: 'A' });
    expect(req.passengers[1]).toMatchObject({ type: 'student', surname: 'LI', gender: 'female' });
    expect(req.passengers[1].seatLetter).toBeUndefined();
    expect(posts[1].headers['Idempotency-Key']).toBeTruthy();
    // The countdown runs.
    expect(screen.getByRole('timer').textContent).toMatch(/^(29:5\d|30:00)$/);

    fireEvent.click(screen.getByRole('button', { name: 'Pay from wallet' }));
    expect(await screen.findByText('E124')).toBeTruthy();
    const pay = a.of('POST', '/order/v2/train/orders/42/payment')[0];
    expect(pay.body).toEqual({ channel: 'balance' });
    expect(pay.headers['Idempotency-Key']).toBeTruthy();
    expect(pay.headers['Idempotency-Key']).not.toBe(posts[1].headers['Idempotency-Key']);
    expect(screen.getByText('Issued')).toBeTruthy();
    expect(screen.getByText('12A')).toBeTruthy();
    expect(screen.getByText('ZHANG WEI')).toBeTruthy();
    expect(screen.getByText('LI NA')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View the booking' }).getAttribute('href')).toBe('/train/orders/42');
  }, slow);

  it('says in Chinese that the hold ran out and offers no payment', async () => {
    const order = { id: 7, bookingNumber: 'T1', status: 'to_be_paid', holdExpiresAt: new Date(Date.now() - 1000).toISOString(), passengers: [] };
    const a = api({
      'GET /shopping/v2/train/stations': stationRoute,
      'POST /shopping/v2/train/search': { code: 0, data: { items: trains } },
      'POST /order/v2/train/orders': { code: 0, data: order },
    });
    renderBooking(cn);
    await pick('出发站', 'beijing', /Beijing South/);
    await pick('到达站', 'shanghai', /Shanghai Hongqiao/);
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await screen.findByText(/共 3 趟/);
    fireEvent.click(screen.getByRole('button', { name: '预订 G1 二等座' }));
    fireEvent.change(document.getElementById('fc-passengers-0-surname')!, { target: { value: '张' } });
    fireEvent.change(document.getElementById('fc-passengers-0-givenName')!, { target: { value: '伟' } });
    fireEvent.click(screen.getByRole('radio', { name: '男' }));
    fireEvent.change(document.getElementById('fc-passengers-0-birthday')!, { target: { value: '1990-05-01' } });
    fireEvent.change(document.getElementById('fc-passengers-0-documentNumber')!, { target: { value: '11010519491231002X' } });
    fireEvent.change(document.getElementById('fc-contact-name')!, { target: { value: '张伟' } });
    fireEvent.change(document.getElementById('fc-contact-phone')!, { target: { value: '13800138000' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '提交订单' }));
    });
    expect(await screen.findByText('座位保留已到期，请重新查询预订。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '钱包支付' })).toBeNull();
    await waitFor(() => expect(a.of('POST', '/order/v2/train/orders')).toHaveLength(1));
  }, slow);
});
