// The railway's clock: China Railway's times are China Standard Time
// (UTC+8), whatever offset the API writes them in and wherever the browser
// is. toChina rewrites a stamp in +08:00, so the flight helpers that read a
// stamp's own wall clock (localTime, localDate, dayOffset) read the
// station's time.
export function toChina(rfc3339: string | undefined | null): string {
  if (!rfc3339) return '';
  const ms = Date.parse(rfc3339);
  if (!Number.isFinite(ms)) return '';
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19) + '+08:00';
}
