// How the page shows times and money (issue 20), read from the meta tags the
// server writes (templates/display.templ): the user's time zone, and the
// footer's display currency with the site's rates (what one unit of each
// currency is worth in the site's default currency). The server writes the
// same things the same way (pkg/display).

function meta(name: string): HTMLMetaElement | null {
  return typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
}

// pageZone is the IANA zone the page's times are in; UTC when the page says none.
export function pageZone(): string {
  const z = meta('voyage-time-zone')?.content || '';
  try {
    new Intl.DateTimeFormat('en', { timeZone: z || 'UTC' });
    return z || 'UTC';
  } catch {
    return 'UTC';
  }
}

// offsetLabel writes the zone's offset as the server does: "UTC+8",
// "UTC+5:30", "UTC-3", "UTC".
export function offsetLabel(shortOffset: string): string {
  const m = /^(?:GMT|UTC)(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(shortOffset.trim());
  if (!m || !m[1] || (Number(m[2]) === 0 && Number(m[3] || 0) === 0)) return 'UTC';
  const h = String(Number(m[2]));
  return `UTC${m[1]}${h}${m[3] && m[3] !== '00' ? `:${m[3]}` : ''}`;
}

// formatInZone writes an RFC 3339 instant in zone as "2026-11-25 18:06
// UTC+8": the zone named, whatever the browser's own zone.
export function formatInZone(rfc3339: string | undefined | null, zone: string = pageZone()): string {
  if (!rfc3339) return '';
  const ms = Date.parse(rfc3339);
  if (!Number.isFinite(ms)) return '';
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  }).formatToParts(new Date(ms));
  const p = (type: string) => parts.find((x) => x.type === type)?.value || '';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')} ${offsetLabel(p('timeZoneName'))}`;
}

type Display = { code: string; rates: Record<string, string> };

function pageDisplay(): Display {
  const m = meta('voyage-display-currency');
  let rates: Record<string, string> = {};
  try {
    rates = JSON.parse(m?.dataset.rates || '{}');
  } catch {
    rates = {};
  }
  return { code: m?.content || '', rates };
}

// A decimal string as an integer and its scale: "7.10" → [710n, 2].
function decimal(s: string | undefined): [bigint, number] | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec((s || '').replace(/,/g, '').trim());
  if (!m) return null;
  const frac = m[2] || '';
  return [BigInt(m[1] + frac), frac.length];
}

const zeroDecimals = ['JPY', 'KRW'];

// approx is amount of currency in the display currency, marked
// approximate ("≈ USD 123.45"), rounded up as spec §9 shows converted
// prices; "" when the display currency is the same, unknown or has no rate
// for the pair, and for zero (zero in every currency), as the server does.
// Exact decimal arithmetic (BigInt), never floats.
export function approx(amount: string | undefined, currency: string | undefined, d: Display = pageDisplay()): string {
  if (!d.code || !currency || d.code === currency) return '';
  const a = decimal(amount);
  const rf = decimal(d.rates[currency]);
  const rt = decimal(d.rates[d.code]);
  if (!a || !rf || !rt || a[0] === 0n || rf[0] === 0n || rt[0] === 0n) return '';
  const digits = zeroDecimals.includes(d.code) ? 0 : 2;
  // units = a × rf ÷ rt, in 10^-digits, rounded up.
  const num = a[0] * rf[0] * 10n ** BigInt(digits + rt[1]);
  const den = rt[0] * 10n ** BigInt(a[1] + rf[1]);
  const units = (num + den - 1n) / den;
  const s = units.toString().padStart(digits + 1, '0');
  const int = digits ? s.slice(0, -digits) : s;
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `≈ ${d.code} ${digits ? `${grouped}.${s.slice(-digits)}` : grouped}`;
}
