// The core flows of an integrator, written against the TypeScript client
// that openapi-typescript generates from the served /openapi.json (types in
// ./.gen/api.d.ts) and openapi-fetch. A document that lies about a path, a
// parameter or a body shape breaks the type check or these calls.
import createClient from 'openapi-fetch';
import type { paths } from './.gen/api';

function ok<T>(r: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (r.error !== undefined || r.data === undefined) {
    throw new Error(`${what}: HTTP ${r.response.status} ${JSON.stringify(r.error)}`);
  }
  return r.data;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function login(baseUrl: string, username: string, password: string) {
  const anon = createClient<paths>({ baseUrl });
  const me = ok(await anon.POST('/base/v2/login', { body: { username, password } }), 'login ' + username).data;
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${me.token}`, 'Accept-Language': 'en' } });
  return { client, me };
}

export async function run(baseUrl: string): Promise<string[]> {
  const log: string[] = [];
  const { client, me } = await login(baseUrl, 'demo-super', 'demo-pass-1');
  const agencyId = me.company.id;
  const tag = `ts-${Date.now()}`;

  // Wallet: the provider tops up the agency (Idempotency-Key), the agency reads it.
  const provider = (await login(baseUrl, 'provider-admin', 'provider-pass-1')).client;
  ok(await provider.POST('/base/v2/agencies/{id}/balance', {
    params: { path: { id: agencyId }, header: { 'Idempotency-Key': tag + '-topup' } },
    body: { currency: 'CNY', amountReceived: '50000.00', exchangeRate: '1', reference: tag, sendEmail: false },
  }), 'top-up');
  const wallet = ok(await client.GET('/base/v2/wallet'), 'wallet').data;
  log.push(`wallet ${wallet.balance.amount} ${wallet.balance.currency}`);

  // Search, then poll the solutions until complete.
  const date = new Date(Date.now() + 30 * 86400_000).toISOString().slice(0, 10);
  const started = ok(await client.POST('/shopping/v2/flight/async-shopping', {
    body: { journeys: [{ origin: 'PEK', destination: 'SHA', date }], passengers: { adult: 1, child: 0, infant: 0 }, cabinClass: 'economy', bookingType: 'oneway' },
  }), 'search').data;
  let page = ok(await client.POST('/shopping/v2/flight/async-shopping/solutions', { body: { searchId: started.searchId, sort: 'price' } }), 'poll').data;
  for (let i = 0; !page.complete && i < 120; i++) {
    await sleep(500);
    page = ok(await client.POST('/shopping/v2/flight/async-shopping/solutions', { body: { searchId: started.searchId, sort: 'price' } }), 'poll').data;
  }
  if (!page.complete || !page.items || page.items.length === 0) throw new Error('the search found nothing');
  log.push(`search ${page.items.length} solutions`);

  // Verify solutions until one gives a quote.
  let quoteId = '';
  for (const s of page.items) {
    if (s.ticketingSpeed.startsWith('special')) continue;
    const v = await client.POST('/shopping/v2/flight/solutions/{id}/verification', { params: { path: { id: s.id } } });
    if (v.data?.data.quoteId) { quoteId = v.data.data.quoteId; break; }
  }
  if (!quoteId) throw new Error('no solution verified');
  log.push('verified');

  // Book (Idempotency-Key required) and pay from the wallet.
  const order = ok(await client.POST('/order/v2/flight/orders', {
    params: { header: { 'Idempotency-Key': tag + '-book' } },
    body: {
      quoteId,
      passengers: [{ type: 'adult', surname: 'LI', givenName: 'NA', gender: 'female', birthday: '1990-05-06', nationality: 'CN',
        documentType: 'passport', documentNumber: 'E7654321', documentExpiry: '2035-01-01' }],
      contact: { name: 'Li Na', email: 'li.na@example.com', phone: '+86 139 0000 0000' },
    },
  }), 'book').data;
  log.push(`booked ${order.bookingNumber} ${order.status}`);
  const paid = ok(await client.POST('/order/v2/flight/orders/{id}/payment', {
    params: { path: { id: order.id }, header: { 'Idempotency-Key': tag + '-pay' } },
    body: { channel: 'balance' },
  }), 'pay').data;
  log.push(`paid ${paid.status}`);

  // Ticketing runs in the background: wait for issued.
  let status = paid.status;
  for (let i = 0; status !== 'issued' && i < 240; i++) {
    await sleep(500);
    status = ok(await client.GET('/order/v2/flight/orders/{id}', { params: { path: { id: order.id } } }), 'get order').data.status;
  }
  if (status !== 'issued') throw new Error(`order not issued: ${status}`);
  const list = ok(await client.GET('/order/v2/flight/orders', { params: { query: { keyword: order.bookingNumber } } }), 'list orders').data;
  if (!list.items?.some((o) => o.id === order.id)) throw new Error('the order list lacks the order');
  log.push('issued');

  // Refund request: multipart, as the document says.
  const refund = ok(await client.POST('/order/v2/flight/orders/{id}/refund', {
    params: { path: { id: order.id } },
    body: { reason: 0, remark: 'plans changed' },
    bodySerializer(body) {
      const fd = new FormData();
      fd.set('reason', String(body.reason));
      if (body.remark) fd.set('remark', body.remark);
      return fd;
    },
  }), 'refund').data;
  log.push(`refund ${refund.type} ${refund.status}`);

  // Statements: create one, list them, export it as CSV.
  // A statement's days are its agency's: the demo agencies keep the default
  // zone, Asia/Shanghai, where the order paid just now is on today's date
  // (from 16:00 UTC that is tomorrow's in UTC). en-CA writes YYYY-MM-DD.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const st = ok(await client.POST('/base/v2/statements', { body: { from: today, to: today } }), 'statement').data;
  const sts = ok(await client.GET('/base/v2/statements'), 'statements').data;
  if (!sts.items?.some((s) => s.id === st.id)) throw new Error('the statement list lacks the statement');
  const csv = await client.GET('/base/v2/statements/{id}/export', { params: { path: { id: st.id }, query: { format: 'csv' } }, parseAs: 'text' });
  if (!csv.response.ok || !String(csv.data).includes(order.bookingNumber)) throw new Error('the CSV export lacks the order');
  const entries = ok(await client.GET('/base/v2/wallet/entries'), 'wallet entries').data;
  log.push(`statement ${st.entries?.length ?? 0} entries; wallet ${entries.total} entries`);
  return log;
}
