import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { TrainOrder, type TrainOrderProps } from './TrainOrder';
import { I18nContext } from './useT';
import { initI18n } from './i18n';

let en: i18n;
let cn: i18n;

beforeAll(async () => {
  en = await initI18n('en');
  cn = await initI18n('zh-cn');
});


type Call = { method: string; url: string; body: any; headers: Record<string, string> };

function api(answers: Record<string, { code: number; data?: unknown; message?: string }>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method || 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined, headers: (init?.headers || {}) as Record<string, string> });
      const env = answers[`${method} ${url.split('?')[0]}`] || { code: 100004, message: 'Not Found' };
      return { status: env.code === 0 ? 200 : 409, json: async () => env } as Response;
    }),
  );
  return calls;
}

const money = (amount: string) => ({ amount, currency: 'CNY' });
const base: TrainOrderProps = {
  lang: 'en', id: 42, actions: [], origin: 'VNP', destination: 'AOH', today: '2026-12-01', saleDays: 15,
  passengers: [
    { id: 1, name: 'ZHANG WEI', refundable: true, changeable: true },
    { id: 2, name: 'LI NA', refundable: true, changeable: false },
  ],
};

function show(p: Partial<TrainOrderProps>, i: i18n = en) {
  const reload = vi.fn();
  render(
    <I18nContext.Provider value={i}>
      <TrainOrder {...base} {...p} reload={reload} />
    </I18nContext.Provider>,
  );
  return reload;
}

// A loaded machine renders slowly.
const slow = 30_000;

describe('TrainOrder', () => {
  it('pays an unpaid order from the wallet with a key, the hold counting down, and cancels only when confirmed', async () => {
    const calls = api({ 'POST /order/v2/train/orders/42/payment': { code: 0, data: {} }, 'DELETE /order/v2/train/orders/42': { code: 0, data: {} } });
    const reload = show({ actions: ['pay', 'cancel'], holdExpiresAt: new Date(Date.now() + 10 * 60_000).toISOString() });
    expect(screen.getByRole('timer').textContent).toMatch(/^(9:5\d|10:00)$/);
    const cancel = screen.getByRole('button', { name: 'Cancel booking' }) as HTMLButtonElement;
    expect(cancel.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Pay from wallet' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/order/v2/train/orders/42/payment', body: { channel: 'balance' } });
    expect(calls[0].headers['Idempotency-Key']).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: /cancel this unpaid booking/ }));
    fireEvent.click(cancel);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(2));
    expect(calls[1]).toMatchObject({ method: 'DELETE', url: '/order/v2/train/orders/42' });
  }, slow);

  it('asks for the refund fee of the chosen passengers only', async () => {
    const calls = api({ 'POST /order/v2/train/orders/42/refund': { code: 0, data: {} } });
    const reload = show({ actions: ['refund', 'change'] });
    fireEvent.click(screen.getByRole('checkbox', { name: 'LI NA' }));
    fireEvent.click(screen.getByRole('button', { name: 'Get the refund fee' }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(calls[0].body).toEqual({ passengers: [1] });
    expect(calls[0].headers['Idempotency-Key']).toBeTruthy();
  }, slow);

  it('shows the quote waiting with its fee before the agency confirms, and drops it', async () => {
    const calls = api({ 'POST /order/v2/train/orders/42/confirmation': { code: 0, data: {} }, 'DELETE /order/v2/train/orders/42/quote': { code: 0, data: {} } });
    const quote = { kind: 'refund' as const, passengers: [2], refundAmount: money('497.50'), fee: money('55.50'), due: money('0.00'), validUntil: '2026-12-01T06:00:00Z' };
    // The page's zone (meta voyage-time-zone) is the user's: Paris here.
    const zone = document.createElement('meta');
    zone.name = 'voyage-time-zone';
    zone.content = 'Europe/Paris';
    document.head.appendChild(zone);
    const reload = show({ actions: ['confirm', 'cancel_refund'], quote });
    expect(screen.getByText('Refund quote')).toBeTruthy();
    expect(screen.getByText('Passengers: LI NA')).toBeTruthy();
    expect(screen.getByText('55.50 CNY')).toBeTruthy();
    expect(screen.getByText('497.50 CNY')).toBeTruthy();
    expect(screen.getByText('Valid until 2026-12-01 07:00 UTC+1')).toBeTruthy();
    zone.remove();
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm the refund' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/order/v2/train/orders/42/confirmation' });
    fireEvent.click(screen.getByRole('button', { name: 'Drop the quote' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(2));
    expect(calls[1]).toMatchObject({ method: 'DELETE', url: '/order/v2/train/orders/42/quote' });
  }, slow);

  it('searches another date and quotes the change of the passengers who may still change', async () => {
    const train = {
      id: 'offer-9', trainNumber: 'G7', trainType: 'G', origin: 'VNP', destination: 'AOH', departAt: '2026-12-03T00:00:00Z', arriveAt: '2026-12-03T05:00:00Z',
      durationMinutes: 300, stops: [], seats: [{ class: 'second', price: money('520.00'), available: 30 }, { class: 'first', price: money('900.00'), available: 0 }],
    };
    const calls = api({ 'POST /shopping/v2/train/search': { code: 0, data: { items: [train] } }, 'POST /order/v2/train/orders/42/change': { code: 0, data: {} } });
    const reload = show({ actions: ['refund', 'change'] });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-12-03' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find trains' }));
    expect(await screen.findByText('08:00 → 13:00 · 05h00m', { exact: false })).toBeTruthy();
    expect(calls[0].body).toEqual({ origin: 'VNP', destination: 'AOH', date: '2026-12-03', passengers: { adult: 1, child: 0 } });
    expect((screen.getByRole('button', { name: 'Change to First class on G7' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Change to Second class on G7' }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(calls[1].body).toEqual({ offerId: 'offer-9', seatClass: 'second', passengers: [1] });
  }, slow);

  it('shows a refusal in the page language and stays', async () => {
    api({ 'POST /order/v2/train/orders/42/refund': { code: 100009, message: '开车前 30 分钟停止办理退票' } });
    const reload = show({ actions: ['refund'] }, cn);
    fireEvent.click(screen.getByRole('button', { name: '查询退票费' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText('开车前 30 分钟停止办理退票')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  }, slow);

  it('lets the provider issue or refuse a manual order', async () => {
    const calls = api({ 'POST /order/v2/train/orders/42/tickets': { code: 0, data: {} } });
    const reload = show({ actions: ['confirm_tickets', 'fail_tickets'] });
    fireEvent.change(screen.getByLabelText('Remark'), { target: { value: 'issued at the counter' } });
    fireEvent.click(screen.getByRole('button', { name: 'Issue tickets' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls[0].body).toEqual({ remark: 'issued at the counter' });
    fireEvent.click(screen.getByRole('button', { name: 'Refuse, return the payment' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(2));
    expect(calls[1].body).toEqual({ fail: true, remark: 'issued at the counter' });
  }, slow);

  it('lets the provider type the tickets by hand, with the field at fault shown', async () => {
    const answers: Record<string, { code: number; data?: unknown; message?: string }> = {
      'POST /order/v2/train/orders/42/tickets': { code: 100001, message: '票号：6 至 20 位字母和数字', data: { fields: { 'tickets[1].ticketNumber': '票号：6 至 20 位字母和数字' } } },
    };
    const calls = api(answers);
    const reload = show({ actions: ['confirm_tickets'] }, cn);
    fireEvent.click(screen.getByLabelText('手工填写车票'));
    const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    type('车厢 · ZHANG WEI', '05');
    type('座位 · ZHANG WEI', '12F');
    type('票号 · ZHANG WEI', 'E123456789');
    type('车厢 · LI NA', '05');
    type('座位 · LI NA', ' 12D ');
    type('票号 · LI NA', 'E1');
    fireEvent.click(screen.getByRole('button', { name: '确认出票' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(calls[0].body).toEqual({
      remark: '',
      tickets: [
        { passengerId: 1, coach: '05', seat: '12F', ticketNumber: 'E123456789' },
        { passengerId: 2, coach: '05', seat: '12D', ticketNumber: 'E1' },
      ],
    });
    expect(screen.getByLabelText('票号 · LI NA').getAttribute('aria-invalid')).toBe('true');
    expect(reload).not.toHaveBeenCalled();
    answers['POST /order/v2/train/orders/42/tickets'] = { code: 0, data: {} };
    type('票号 · LI NA', 'E123456790');
    fireEvent.click(screen.getByRole('button', { name: '确认出票' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls[1].body.tickets[1]).toEqual({ passengerId: 2, coach: '05', seat: '12D', ticketNumber: 'E123456790' });
  }, slow);
});
