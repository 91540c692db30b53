// Display rules of spec §9 for the flight search: money with 2 decimals and
// thousands separators (rounded up), durations as HHhMMm, and times as the
// airport's own wall clock.

// formatAmount shows a decimal string with 2 decimals, rounded up, and
// thousands separators: "12345.6" → "12,345.60". Strings, not floats, so
// no amount picks up binary rounding on its way to the screen.
export function formatAmount(amount: string | number | undefined | null): string {
  if (amount === undefined || amount === null || amount === '') return '';
  const s = String(amount).trim();
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m) return s;
  const neg = m[1] === '-';
  let int = m[2] || '0';
  let frac = m[3] || '';
  if (frac.length > 2) {
    const rest = frac.slice(2);
    frac = frac.slice(0, 2);
    // Up means away from zero for a price; a refund shown negative keeps its size.
    if (/[1-9]/.test(rest)) {
      const cents = BigInt(int + frac) + 1n;
      const str = cents.toString().padStart(3, '0');
      int = str.slice(0, -2);
      frac = str.slice(-2);
    }
  }
  frac = frac.padEnd(2, '0');
  int = int.replace(/^0+(?=\d)/, '');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const zero = /^0+$/.test(int) && /^0+$/.test(frac);
  return `${neg && !zero ? '-' : ''}${grouped}.${frac}`;
}

export function formatMoney(amount: string | undefined, currency: string | undefined): string {
  const a = formatAmount(amount);
  return currency ? `${a} ${currency}` : a;
}

// formatDuration shows minutes as HHhMMm: 695 → "11h35m", 65 → "01h05m".
export function formatDuration(minutes: number | undefined): string {
  if (minutes === undefined || minutes === null || !Number.isFinite(minutes) || minutes < 0) return '';
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return `${String(h).padStart(2, '0')}h${String(m).padStart(2, '0')}m`;
}

const stamp = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;

// localTime is the wall-clock time of an RFC 3339 stamp in its own offset
// ("2026-12-20T08:35:00+08:00" → "08:35"): an airport's local time, never
// the browser's.
export function localTime(rfc3339: string | undefined): string {
  const m = rfc3339 ? stamp.exec(rfc3339) : null;
  return m ? `${m[4]}:${m[5]}` : '';
}

// localDate is the date part of a stamp in its own offset.
export function localDate(rfc3339: string | undefined): string {
  const m = rfc3339 ? stamp.exec(rfc3339) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : '';
}

function dayNumber(date: string): number {
  const [y, mo, d] = date.split('-').map(Number);
  return Date.UTC(y, mo - 1, d) / 86_400_000;
}

// dayOffset is how many calendar days after the departure's local date the
// arrival lands, in the arrival airport's local date (0, +1, −1…).
export function dayOffset(departAt: string, arriveAt: string): number {
  const a = localDate(departAt);
  const b = localDate(arriveAt);
  if (!a || !b) return 0;
  return Math.round(dayNumber(b) - dayNumber(a));
}

// addDays adds n days to a YYYY-MM-DD date.
export function addDays(date: string, n: number): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const d = new Date((dayNumber(date) + n) * 86_400_000);
  return d.toISOString().slice(0, 10);
}

export function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  return addDays(s, 0) === s && !Number.isNaN(dayNumber(s));
}

// weekday is the short weekday of a date in lang.
export function weekday(date: string, lang: string): string {
  if (!isDate(date)) return '';
  const tag = lang === 'zh-tw' ? 'zh-TW' : lang === 'zh-cn' ? 'zh-CN' : 'en';
  return new Intl.DateTimeFormat(tag, { weekday: 'short', timeZone: 'UTC' }).format(new Date(dayNumber(date) * 86_400_000));
}
