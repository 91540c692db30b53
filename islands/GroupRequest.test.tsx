import { beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { GroupRequest, groupOrdersPath } from './GroupRequest';
import { I18nContext } from './useT';
import { bothLanguages, fakeApi, routes, type Env } from './testing';
import { fieldFor, initialForm, toRequest, validate, withTrip } from './group/request';

let en: i18n;
let cn: i18n;

beforeAll(async () => ({ en, cn } = await bothLanguages()));


const places: Record<string, unknown[]> = {
  pek: [{ code: 'PEK', name: 'Beijing Capital', type: 'airport', cityCode: 'BJS', cityName: 'Beijing', country: 'CN' }],
  pkx: [{ code: 'PKX', name: 'Beijing Daxing', type: 'airport', cityCode: 'BJS', cityName: 'Beijing', country: 'CN' }],
  lhr: [{ code: 'LHR', name: 'London Heathrow', type: 'airport', cityCode: 'LON', cityName: 'London', country: 'GB' }],
};

// api fakes the agency API (testing.ts): the airports answer from places,
// the group request from answers in turn (the last repeats).
function api(answers: Env[]) {
  const calls = fakeApi(
    routes({
      '/base/v2/airports': (_, url) => ({ code: 0, data: places[(new URL(url, 'http://portal').searchParams.get('q') || '').toLowerCase()] || [] }),
      [groupOrdersPath]: answers,
    }),
  );
  return { calls, requests: () => calls.filter((c) => c.path === groupOrdersPath) };
}

function mount(lang: i18n = en, navigate = vi.fn()) {
  render(
    <I18nContext.Provider value={lang}>
      <GroupRequest today="2026-11-25" confirmPath="/flight/group/booking/confirm" contact={{ name: 'Li Lei', email: 'li@example.com' }} navigate={navigate} debounceMs={0} />
    </I18nContext.Provider>,
  );
  return navigate;
}

async function pick(label: string, q: string, option: RegExp) {
  const box = screen.getByRole('combobox', { name: label });
  fireEvent.change(box, { target: { value: q } });
  const opt = await screen.findByRole('option', { name: option });
  fireEvent.mouseDown(opt);
  fireEvent.click(opt);
}

describe('GroupRequest', () => {
  it('starts with the spec defaults: 10 adults, 10 children, no infant, economy, the user as contact', () => {
    api([]);
    mount();
    expect(screen.getByLabelText('Adults')).toHaveProperty('value', '10');
    expect(screen.getByLabelText('Children')).toHaveProperty('value', '10');
    expect(screen.getByLabelText('Infants')).toHaveProperty('value', '0');
    expect(screen.getByLabelText('Cabin')).toHaveProperty('value', 'economy');
    expect(screen.getByLabelText('Contact name')).toHaveProperty('value', 'Li Lei');
    expect(screen.getByText(/does not reserve seats/)).toBeTruthy();
  });

  it('refuses an empty route and a small group before asking the server', async () => {
    const { requests } = api([]);
    mount();
    fireEvent.change(screen.getByLabelText('Adults'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Children'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(await screen.findByText('Choose where the group departs from')).toBeTruthy();
    expect(screen.getByText('A group is at least 10 seats (adults and children)')).toBeTruthy();
    expect(screen.getByText("Enter the contact's phone")).toBeTruthy();
    expect(requests()).toHaveLength(0);
  });

  it('posts the request with an Idempotency-Key and goes to the confirmation page', async () => {
    const { requests } = api([{ code: 0, data: { id: 42, bookingNumber: 'G1', status: 'to_be_quote' } }]);
    const navigate = mount();
    await pick('From', 'pek', /Beijing Capital/);
    await pick('To', 'lhr', /London Heathrow/);
    fireEvent.change(screen.getByLabelText('Contact phone'), { target: { value: '+86 10 5555 0000' } });
    fireEvent.click(screen.getByLabelText('The dates may change by a few days'));
    fireEvent.change(screen.getByLabelText('Remark'), { target: { value: 'School trip' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/group/booking/confirm?id=42'));
    const [req] = requests();
    expect(req.method).toBe('POST');
    expect(req.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(req.body).toEqual({
      journeys: [{ origin: 'PEK', destination: 'LHR', date: '2026-12-02' }],
      isChangeDate: true,
      acceptChangeFlight: false,
      passengers: { adult: 10, child: 10, infant: 0 },
      cabinClass: 'economy',
      contact: { name: 'Li Lei', email: 'li@example.com', phone: '+86 10 5555 0000' },
      remark: 'School trip',
    });
  });

  it('shows the server\u2019s field errors beside the fields, in the page language', async () => {
    const { requests } = api([
      { code: 100001, message: '参数错误', data: { fields: { 'journeys[0].date': '日期不能早于今天', 'contact.email': '邮箱格式错误', other: '其他问题' } } },
      { code: 0, data: { id: 7 } },
    ]);
    const navigate = mount(cn);
    await pick('出发地', 'pek', /Beijing Capital/);
    await pick('目的地', 'lhr', /London Heathrow/);
    fireEvent.change(screen.getByLabelText('联系人电话'), { target: { value: '13800000000' } });
    fireEvent.click(screen.getByRole('button', { name: '提交申请' }));
    const date = document.getElementById('gr-journeys-0-date')!;
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('gr-journeys-0-date-error')?.textContent).toBe('日期不能早于今天');
    expect(document.getElementById('gr-contact-email-error')?.textContent).toBe('邮箱格式错误');
    expect(screen.getByRole('alert').textContent).toContain('其他问题');
    expect(navigate).not.toHaveBeenCalled();
    // A refused body is not the same request: the retry gets a new key.
    fireEvent.click(screen.getByRole('button', { name: '提交申请' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/group/booking/confirm?id=7'));
    const [first, second] = requests();
    expect(second.headers['Idempotency-Key']).not.toBe(first.headers['Idempotency-Key']);
  });

  it('keeps the key when the answer was lost, so the retry files one request', async () => {
    api([]);
    const navigate = mount();
    await pick('From', 'pek', /Beijing Capital/);
    await pick('To', 'lhr', /London Heathrow/);
    fireEvent.change(screen.getByLabelText('Contact phone'), { target: { value: '1' } });
    // The first post gets no answer (the network failed).
    vi.stubGlobal(
      'fetch',
      vi.fn()
        .mockRejectedValueOnce(new TypeError('offline'))
        .mockResolvedValue({ status: 200, json: async () => ({ code: 0, data: { id: 9 } }) } as Response),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/flight/group/booking/confirm?id=9'));
    const f = fetch as unknown as ReturnType<typeof vi.fn>;
    const keys = f.mock.calls.map((c) => (c[1]!.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('offers a return date for a return trip and up to five flights for a multi-city one', async () => {
    api([]);
    mount();
    fireEvent.click(screen.getByLabelText('Return'));
    expect(screen.getByLabelText('Return date')).toHaveProperty('value', '2026-12-05');
    fireEvent.click(screen.getByLabelText('Multi-city'));
    expect(screen.queryByLabelText('Return date')).toBeNull();
    expect(screen.getByText('Flight 2')).toBeTruthy();
    const add = screen.getByRole('button', { name: 'Add a flight' });
    await act(async () => {
      for (let i = 0; i < 5; i++) fireEvent.click(add);
    });
    expect(screen.getByText('Flight 5')).toBeTruthy();
    expect(screen.queryByText('Flight 6')).toBeNull();
    expect(add).toHaveProperty('disabled', true);
  });
});

describe('request rules', () => {
  const t = (k: string) => k;
  const place = (code: string, city: string) => ({ code, name: code, type: 'airport' as const, cityCode: city });

  it('refuses two airports of one city (spec §5) and a past date', () => {
    const f = initialForm('2026-11-25', { name: 'a', email: 'a@b.cn', phone: '1' });
    f.journeys[0] = { ...f.journeys[0], origin: place('PEK', 'BJS'), destination: place('PKX', 'BJS'), date: '2026-11-20' };
    const e = validate(f, '2026-11-25', 10, t);
    expect(e['journeys.0.destination']).toBe('order.flight.booking.journeyError.rules');
    expect(e['journeys.0.date']).toBe('groupportal.error.pastDate');
  });

  it('sends the return date only for a return trip', () => {
    let f = initialForm('2026-11-25');
    f.journeys[0] = { ...f.journeys[0], origin: place('PEK', 'BJS'), destination: place('LHR', 'LON') };
    f = withTrip(f, 'return');
    expect(toRequest(f).journeys[0].returnDate).toBe('2026-12-05');
    expect(toRequest(withTrip(f, 'oneway')).journeys[0].returnDate).toBeUndefined();
  });

  it('maps the server\u2019s field names onto the form', () => {
    const f = withTrip(initialForm('2026-11-25'), 'multi');
    expect(fieldFor('journeys[1].origin', f)).toBe('journeys.1.origin');
    expect(fieldFor('journeys.5.origin', f)).toBe('');
    expect(fieldFor('passengers.adult', f)).toBe('passengers');
    expect(fieldFor('contact.phone', f)).toBe('contact.phone');
  });
});

describe('GroupCountdown', () => {
  it('reads the time left as the server writes it, in the page language', async () => {
    const { leftText } = await import('./GroupCountdown');
    const t = (k: string, o?: Record<string, unknown>) => en.t(k, o) as string;
    expect(leftText((2 * 24 + 5) * 3600_000 + 1000, t)).toBe('2 d 5 h');
    expect(leftText(35 * 60_000, t)).toBe('35 min');
    expect(leftText(20_000, (k, o) => cn.t(k, o) as string)).toBe('20 秒');
  });
});

describe('GroupRequest summary', () => {
  it('counts the fields still wrong as they are put right', async () => {
    api([]);
    mount();
    fireEvent.click(screen.getByRole('button', { name: 'Send the request' }));
    await screen.findByText('Fields to correct: 3');
    fireEvent.change(screen.getByLabelText('Contact phone'), { target: { value: '1' } });
    expect(screen.getByRole('alert').textContent).toBe('Fields to correct: 2');
    await pick('From', 'pek', /Beijing Capital/);
    await pick('To', 'lhr', /London Heathrow/);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
