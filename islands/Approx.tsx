// Approx is an amount in the footer's display currency, marked approximate
// ("≈ USD 97.19"), beside the settlement amount it follows (issue 20);
// nothing when the display currency is the settlement one or has no rate.
// The server's pages write the same span (templates/display.templ approx).
import { approx } from './display';
import { useT } from './useT';

type Props = { amount: string | undefined; currency: string | undefined; className?: string };

export function Approx({ amount, currency, className = 'approx' }: Props) {
  const { t } = useT();
  const a = approx(amount, currency);
  if (!a) return null;
  return (
    <>
      {' '}
      <span className={className} title={t('display.approxTitle', { currency })}>
        {a}
      </span>
    </>
  );
}
