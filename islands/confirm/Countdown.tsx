// The quote's countdown: a booked price holds until quoteExpiresAt (spec §9:
// 15 minutes); after that the price must be checked again.
import { useEffect, useState } from 'react';
import { useT } from '../useT';

// useExpiry counts down to at (RFC 3339): the milliseconds left, updated
// every second, and expired from the very moment it passes.
export function useExpiry(at: string | undefined): { left: number | null; expired: boolean } {
  const end = at ? Date.parse(at) : NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!Number.isFinite(end)) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const done = setTimeout(() => setNow(Date.now()), Math.max(0, end - Date.now()) + 1);
    return () => {
      clearInterval(tick);
      clearTimeout(done);
    };
  }, [end]);
  if (!Number.isFinite(end)) return { left: null, expired: false };
  const left = Math.max(0, end - now);
  return { left, expired: left <= 0 };
}

// clock shows milliseconds as m:ss.
export function clock(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// Countdown shows left under the catalog's label; lastMinute is the key of
// what is said once a minute is left (the quote's, unless told: the train
// hold has its own words).
export function Countdown({ left, label = 'confirm.timer.label', lastMinute = 'confirm.timer.lastMinute' }: { left: number; label?: string; lastMinute?: string }) {
  const { t } = useT();
  const low = left <= 60_000;
  return (
    <p className={low ? 'fc-timer fc-timer-low' : 'fc-timer'}>
      {t(label)}{' '}
      <span role="timer" aria-live="off" className="fc-timer-clock">
        {clock(left)}
      </span>
      {/* One polite word when a minute is left, not a reading every second. */}
      <span className="visually-hidden" aria-live="polite">
        {low ? t(lastMinute) : ''}
      </span>
    </p>
  );
}

export function Expired({ onRecheck, busy }: { onRecheck: () => void; busy?: boolean }) {
  const { t } = useT();
  return (
    <div className="fc-expired" role="alert">
      <p className="fc-expired-title">{t('confirm.timer.expired.title')}</p>
      <p>{t('confirm.timer.expired.body')}</p>
      <button type="button" className="btn btn-primary" onClick={onRecheck} disabled={busy}>
        {t('confirm.action.recheck')}
      </button>
    </div>
  );
}
