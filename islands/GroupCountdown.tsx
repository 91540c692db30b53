// GroupCountdown keeps a group quote's or deadline's "time left" current:
// the server renders the same text once; this updates it every second until
// the time passes, then says so (passedKey: "quote expired" by default, a
// deposit's or the passenger list's "deadline passed").
import { useT } from './useT';
import { useExpiry } from './confirm/Countdown';

type T = (key: string, o?: Record<string, unknown>) => string;

// leftText is the time left for people, as the server writes it
// (templates.timeLeft), with seconds in the last minute.
export function leftText(ms: number, t: T): string {
  const s = Math.ceil(ms / 1000);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return t('groupportal.left.days', { days, hours });
  if (hours > 0) return t('groupportal.left.hours', { hours, minutes });
  if (minutes > 0) return t('groupportal.left.minutes', { minutes });
  return t('groupportal.left.seconds', { seconds: s });
}

export function GroupCountdown({ until, passedKey = 'groupportal.quote.expired' }: { until: string; passedKey?: string }) {
  const { t } = useT();
  const { left, expired } = useExpiry(until);
  if (left === null) return null;
  if (expired) return <span className="badge orders-tone-error">{t(passedKey)}</span>;
  return (
    <span role="timer" aria-live="off">
      {t('groupportal.left.label', { left: leftText(left, t) })}
    </span>
  );
}
