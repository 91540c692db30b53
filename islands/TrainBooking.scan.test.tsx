import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { TrainBooking } from './TrainBooking';
import { I18nContext } from './useT';
import { bothLanguages, fakeApi, routes as table, type Env, type Route } from './testing';
import { railDocument } from './train/scan';
import type { Recognition } from './travellers/scan';
import type { SavedTraveller } from './travellers/TravellerPicker';
import type { Train } from './train/types';

let en: i18n;
let cn: i18n;

beforeAll(async () => ({ en, cn } = await bothLanguages()));


// api fakes the agency API (testing.ts) as
// islands/travellers/travellers.test.tsx does: the recognition answers from
// a queue (it takes a multipart image, not JSON), the other paths from their
// handlers.
function api(handlers: Record<string, Route>, scans: Recognition[]) {
  const calls = fakeApi(
    table({
      ...handlers,
      'POST /base/v2/analysis/document': () => {
        const r = scans.shift();
        return r ? { code: 0, data: r } : { code: 100001, message: 'Document recognition failed: check the document type and re-upload' };
      },
    }),
  );
  return { of: (m: string, p: string) => calls.filter((c) => c.method === m && c.path === p) };
}

const money = (amount: string) => ({ amount, currency: 'CNY' });
const g1: Train = {
  id: 'o1', trainNumber: 'G1', trainType: 'G', origin: 'VNP', originName: 'Beijing South', destination: 'AOH', destinationName: 'Shanghai Hongqiao',
  departAt: '2026-12-02T09:00:00+08:00', arriveAt: '2026-12-02T13:28:00+08:00', durationMinutes: 268, stops: 1,
  seats: [{ class: 'second', price: money('553.00'), available: 120 }],
};
const stations: Record<string, unknown[]> = {
  beijing: [{ code: 'VNP', name: 'Beijing South', city: 'Beijing', country: 'CN' }],
  shanghai: [{ code: 'AOH', name: 'Shanghai Hongqiao', city: 'Shanghai', country: 'CN' }],
};

const scan = (r: Partial<Recognition>): Recognition => ({
  type: 'passport', travel_document: 'L898902C3', surname: 'ERIKSSON', given_names: 'ANNA MARIA', nationality: 'GBR', birthday: '1974-08-12',
  gender: 'female', expiry: '2031-04-15', issuing_country: 'GBR', confidence: 0.96, ...r,
});

const saved = (id: number, p: Partial<SavedTraveller>): SavedTraveller => ({
  id, surname: 'SMITH', givenName: 'JOHN', type: 'adult', gender: 'male', birthday: '1980-02-03', nationality: 'US', documentType: 'passport',
  documentNumber: 'P1234567', documentExpiry: '2030-01-01', ...p,
});

function routes(travellers: SavedTraveller[], onOrder?: (body: any) => void): Record<string, (body: any, url: string) => Env> {
  return {
    'GET /shopping/v2/train/stations': (_, url) => ({ code: 0, data: stations[new URL(url, 'http://x').searchParams.get('q') || ''] || [] }),
    'POST /shopping/v2/train/search': () => ({ code: 0, data: { items: [g1] } }),
    'GET /base/v2/often-used-passengers': () => ({ code: 0, data: { items: travellers, total: travellers.length } }),
    'POST /order/v2/train/orders': (body) => {
      onOrder?.(body);
      return { code: 0, data: { id: 9, bookingNumber: 'T9', status: 'to_be_paid', holdExpiresAt: new Date(Date.now() + 600_000).toISOString(), passengers: [] } };
    },
  };
}

// open searches Beijing–Shanghai for adults and opens the booking of G1.
async function open(i: i18n, adults: number, labels = { from: 'From', to: 'To', adults: 'Adults', search: 'Search trains', book: 'Book Second class on G1' }) {
  render(
    <I18nContext.Provider value={i}>
      <TrainBooking lang={i.language} today="2026-12-01" debounceMs={0} pollMs={5} />
    </I18nContext.Provider>,
  );
  const pick = async (label: string, q: string, option: RegExp) => {
    fireEvent.change(screen.getByRole('combobox', { name: label }), { target: { value: q } });
    fireEvent.mouseDown(await screen.findByRole('option', { name: option }));
  };
  await pick(labels.from, 'beijing', /Beijing South/);
  await pick(labels.to, 'shanghai', /Shanghai Hongqiao/);
  fireEvent.change(screen.getByLabelText(labels.adults), { target: { value: String(adults) } });
  fireEvent.click(screen.getByRole('button', { name: labels.search }));
  fireEvent.click(await screen.findByRole('button', { name: labels.book }));
}

const passenger = (title: string) => within(screen.getByText(title).closest('fieldset')!);
const field = (i: number, name: string) => document.getElementById(`fc-passengers-${i}-${name}`) as HTMLInputElement;

async function scanInto(title: string, button: string, fileLabel: string, confirm: string) {
  const p = passenger(title);
  fireEvent.click(p.getByRole('button', { name: `${button} · ${title}` }));
  fireEvent.change(p.getByLabelText(fileLabel), { target: { files: [new File([new Uint8Array(8)], 'passport.jpg', { type: 'image/jpeg' })] } });
  fireEvent.click(await p.findByRole('button', { name: confirm }));
}

const slow = 30_000;

describe('train documents', () => {
  it("maps scanned and saved documents onto the railway's, refusing the others", () => {
    expect(railDocument('passport', 'GB')).toEqual({ type: 'passport' });
    expect(railDocument('chinese-passport', 'CN')).toEqual({ type: 'passport' });
    expect(railDocument('idcard', 'DE', 'T22000129')).toEqual({ refusal: 'trainscan.refuse.foreignIdCard' });
    expect(railDocument('idcard', 'CN', '11010519491231002X')).toEqual({ type: 'id_card' });
    expect(railDocument('eep', 'CN', 'C88608477')).toEqual({ refusal: 'trainscan.refuse.exitEntryPermit' });
    expect(railDocument('hk-macao-return-permit', 'HK')).toEqual({ type: 'hk_macao_permit' });
    expect(railDocument('taiwan-compatriot-permit', 'TW')).toEqual({ type: 'taiwan_permit' });
    expect(railDocument('foreigner-residence-permit', 'US')).toEqual({ refusal: 'trainscan.refuse.other' });
  });
});

describe('TrainBooking scan and pick', () => {
  it('fills a passenger from a scanned passport, leaves a Chinese name for its characters, refuses a foreign ID card and books', async () => {
    let order: any;
    api(routes([], (b) => (order = b)), [
      scan({}),
      scan({ type: 'chinese-passport', travel_document: 'E12345678', surname: 'ZHANG', given_names: 'SAN', nationality: 'CHN', gender: 'male', birthday: '1985-05-12', issuing_country: 'CHN' }),
      scan({ type: 'idcard', travel_document: 'T22000129', surname: 'MUSTERMANN', given_names: 'ERIKA', nationality: 'D', issuing_country: 'D' }),
    ]);
    await open(en, 2);
    await scanInto('Passenger 1', 'Scan document', "Photo of the document's data page", 'Fill the form');
    expect(field(0, 'surname').value).toBe('ERIKSSON');
    expect(field(0, 'givenName').value).toBe('ANNA MARIA');
    expect(field(0, 'birthday').value).toBe('1974-08-12');
    expect(field(0, 'nationality').value).toBe('GB');
    expect(field(0, 'documentType').value).toBe('passport');
    expect(field(0, 'documentNumber').value).toBe('L898902C3');
    expect((passenger('Passenger 1').getByRole('radio', { name: 'Female' }) as HTMLInputElement).checked).toBe(true);
    expect(passenger('Passenger 1').getByText('The document was filled in; please check the fields')).toBeTruthy();

    // A Chinese citizen: the document is filled, the name is asked for in characters.
    await scanInto('Passenger 2', 'Scan document', "Photo of the document's data page", 'Fill the form');
    expect(field(1, 'documentNumber').value).toBe('E12345678');
    expect(field(1, 'nationality').value).toBe('CN');
    expect(field(1, 'surname').value).toBe('');
    expect(passenger('Passenger 2').getByText(/enter it above as surname and given name \(the document's Latin name reads ZHANG SAN\)/)).toBeTruthy();

    // A foreign ID card is refused with the reason and changes nothing.
    fireEvent.change(field(1, 'surname'), { target: { value: '张' } });
    fireEvent.change(field(1, 'givenName'), { target: { value: '三' } });
    await scanInto('Passenger 2', 'Scan document', "Photo of the document's data page", 'Fill the form');
    expect(passenger('Passenger 2').getByRole('alert').textContent).toMatch(/^This identity card cannot be used for train tickets in China/);
    expect(field(1, 'documentNumber').value).toBe('E12345678');
    expect(field(1, 'surname').value).toBe('张');

    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Anna Eriksson' } });
    fireEvent.change(screen.getByLabelText(/^Phone/), { target: { value: '13800138000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Book and hold seats' }));
    expect(await screen.findByRole('heading', { name: 'Booking T9' })).toBeTruthy();
    expect(order.passengers).toEqual([
      expect.objectContaining({ surname: 'ERIKSSON', givenName: 'ANNA MARIA', gender: 'female', birthday: '1974-08-12', nationality: 'GB', documentType: 'passport', documentNumber: 'L898902C3' }),
      expect.objectContaining({ surname: '张', givenName: '三', gender: 'male', nationality: 'CN', documentType: 'passport', documentNumber: 'E12345678' }),
    ]);
  }, slow);

  it('says in Chinese that an Exit-Entry Permit for Hong Kong and Macao cannot be used', async () => {
    api(routes([]), [scan({ type: 'eep', travel_document: 'C88608477', surname: '', given_names: '', nationality: 'CHN', gender: '', issuing_country: 'CHN' })]);
    await open(cn, 1, { from: '出发站', to: '到达站', adults: '成人', search: '查询', book: '预订 G1 二等座' });
    await scanInto('乘客 1', '扫描证件', '证件资料页照片', '填入表单');
    expect(passenger('乘客 1').getByRole('alert').textContent).toMatch(/^往来港澳通行证不能用于购买中国火车票/);
    expect(field(0, 'documentNumber').value).toBe('');
  }, slow);

  it('fills passengers from saved travellers, keeps a picked one from the others and refuses a document the railway does not take', async () => {
    let order: any;
    api(
      routes(
        [
          saved(1, {}),
          saved(2, { surname: 'WANG', givenName: 'FANG', gender: 'female', nationality: 'CN', documentType: 'idcard', documentNumber: '11010519491231002X' }),
          saved(3, { surname: 'LI', givenName: 'LEI', nationality: 'CN', documentType: 'eep', documentNumber: 'C88608477' }),
        ],
        (b) => (order = b),
      ),
      [],
    );
    await open(en, 2);
    const picker = (title: string) => passenger(title).getByRole('combobox', { name: 'Fill from a saved traveller' }) as HTMLSelectElement;
    await passenger('Passenger 1').findByRole('option', { name: /^SMITH\/JOHN/ });
    fireEvent.change(picker('Passenger 1'), { target: { value: '1' } });
    expect([field(0, 'surname').value, field(0, 'givenName').value, field(0, 'nationality').value, field(0, 'documentType').value, field(0, 'documentNumber').value]).toEqual([
      'SMITH', 'JOHN', 'US', 'passport', 'P1234567',
    ]);
    // Smith is taken for passenger 2.
    expect(Array.from(picker('Passenger 2').options).find((o) => o.value === '1')?.disabled).toBe(true);

    fireEvent.change(picker('Passenger 2'), { target: { value: '3' } });
    expect(passenger('Passenger 2').getByRole('alert').textContent).toMatch(/^The Exit-Entry Permit for travelling to Hong Kong and Macao cannot be used/);
    expect(field(1, 'documentNumber').value).toBe('');

    fireEvent.change(picker('Passenger 2'), { target: { value: '2' } });
    expect(passenger('Passenger 2').queryByRole('alert')).toBeNull();
    expect([field(1, 'documentType').value, field(1, 'documentNumber').value, field(1, 'birthday').value, field(1, 'surname').value]).toEqual(['id_card', '11010519491231002X', '1980-02-03', '']);
    expect(passenger('Passenger 2').getByText(/Latin name reads WANG FANG/)).toBeTruthy();
    fireEvent.change(field(1, 'surname'), { target: { value: '王' } });
    fireEvent.change(field(1, 'givenName'), { target: { value: '芳' } });

    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'John Smith' } });
    fireEvent.change(screen.getByLabelText(/^Phone/), { target: { value: '13800138000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Book and hold seats' }));
    expect(await screen.findByRole('heading', { name: 'Booking T9' })).toBeTruthy();
    expect(order.passengers[0]).toMatchObject({ surname: 'SMITH', givenName: 'JOHN', gender: 'male', documentType: 'passport', documentNumber: 'P1234567' });
    expect(order.passengers[1]).toMatchObject({ surname: '王', givenName: '芳', gender: 'female', documentType: 'id_card', documentNumber: '11010519491231002X' });
  }, slow);
});
