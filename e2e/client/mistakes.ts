// Requests the server refuses must not compile against the generated
// client: each line under @ts-expect-error is one (the type check fails on
// a directive that finds no error, so a document that stops saying what is
// required, or loses an enum, fails the test). Never run, only checked.
import createClient from 'openapi-fetch';
import type { paths } from './.gen/api';

const passenger = {
  type: 'adult', surname: 'LI', givenName: 'NA', gender: 'female', birthday: '1990-05-06', nationality: 'CN',
  documentType: 'passport', documentNumber: 'E7654321', documentExpiry: '2035-01-01',
} as const;
const contact = { name: 'Li Na', email: 'li.na@example.com', phone: '+86 139 0000 0000' };

export async function mistakes(baseUrl: string): Promise<Record<string, string> | undefined> {
  const c = createClient<paths>({ baseUrl });
  const key = { header: { 'Idempotency-Key': 'k' } };

  // @ts-expect-error a login without its password
  await c.POST('/base/v2/login', { body: { username: 'demo-super' } });
  // @ts-expect-error an order without passengers
  await c.POST('/order/v2/flight/orders', { params: key, body: { quoteId: 'q', contact } });
  // @ts-expect-error an order without its contact
  await c.POST('/order/v2/flight/orders', { params: key, body: { quoteId: 'q', passengers: [passenger] } });
  const { surname: _, ...nameless } = passenger;
  // @ts-expect-error a passenger without a surname
  await c.POST('/order/v2/flight/orders', { params: key, body: { quoteId: 'q', passengers: [nameless], contact } });
  // @ts-expect-error a passenger type outside the enum
  await c.POST('/order/v2/flight/orders', { params: key, body: { quoteId: 'q', passengers: [{ ...passenger, type: 'god' }], contact } });
  // @ts-expect-error a payment channel outside the enum
  await c.POST('/order/v2/flight/orders/{id}/payment', { params: { path: { id: 1 }, ...key }, body: { channel: 'bitcoin' } });
  // @ts-expect-error a document type outside the enum
  await c.POST('/order/v2/flight/orders', { params: key, body: { quoteId: 'q', passengers: [{ ...passenger, documentType: 'banana' }], contact } });
  // @ts-expect-error a role outside the enum
  await c.POST('/base/v2/users', { body: { username: 'u', email: 'u@example.com', nickname: 'U', mobile: '1', areaCode: '86', role: ['god'], status: 'active', password: 'long-pass-1' } });
  // @ts-expect-error a payment that names no channel
  await c.POST('/order/v2/flight/orders/{id}/payment', { params: { path: { id: 1 }, ...key }, body: {} });
  // @ts-expect-error an agency's settings without the flight and train parts (a PUT replaces them all)
  await c.PUT('/base/v2/agencies/{id}/config', { params: { path: { id: 2 } }, body: { train: { notifyUrl: '', manual: true } } });

  // The error's details are typed: the fields at fault of a 400.
  const refused = await c.POST('/base/v2/login', { body: { username: 'demo-super', password: '' } });
  return refused.error?.data?.fields;
}
