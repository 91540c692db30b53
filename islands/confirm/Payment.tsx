// The payment part of the confirm page: the channels of GET
// /order/v2/flight/config/payment, the wallet's available amount, and what
// happens when the agency may not pay (spec §3 disable payment).
import { useT } from '../useT';
import { formatMoney } from '../flight/format';
import { tOr } from '../flight/PriceDetail';
import type { PaymentConfig } from './types';

export type PaymentState = { status: 'loading' } | { status: 'ready'; config: PaymentConfig } | { status: 'error'; message: string };

// canPay: the booking is paid on this page (otherwise it is only booked).
export function canPay(p: PaymentState): boolean {
  return p.status === 'ready' && !p.config.paymentDisabled && p.config.channels.length > 0;
}

// defaultChannel prefers the wallet.
export function defaultChannel(c: PaymentConfig): string {
  return (c.channels.find((x) => x.kind === 'wallet') || c.channels[0])?.channel || '';
}

type Props = {
  state: PaymentState;
  channel: string;
  onChannel: (c: string) => void;
  onRetry: () => void;
  disabled?: boolean;
};

export function PaymentSection({ state, channel, onChannel, onRetry, disabled }: Props) {
  const { t } = useT();
  return (
    <section className="fc-section" aria-labelledby="fc-payment-title">
      <h2 id="fc-payment-title">{t('confirm.payment.title')}</h2>
      <PaymentBody state={state} channel={channel} onChannel={onChannel} onRetry={onRetry} disabled={disabled} />
    </section>
  );
}

export function PaymentBody({ state, channel, onChannel, onRetry, disabled }: Props) {
  const { t } = useT();
  if (state.status === 'loading') return <p className="fs-waiting">{t('confirm.payment.loading')}</p>;
  if (state.status === 'error') {
    return (
      <div className="fc-note">
        <p>{state.message}</p>
        <p>{t('confirm.payment.loadFailed')}</p>
        <button type="button" className="btn btn-small" onClick={onRetry}>
          {t('confirm.action.retry')}
        </button>
      </div>
    );
  }
  const c = state.config;
  if (c.paymentDisabled) return <p className="fc-note">{t('confirm.payment.disabled')}</p>;
  if (c.channels.length === 0) return <p className="fc-note">{t('confirm.payment.none')}</p>;
  return (
    <fieldset className="fc-channels" disabled={disabled}>
      <legend>{t('confirm.payment.channel')}</legend>
      {c.channels.map((ch) => (
        <label key={ch.channel} className={channel === ch.channel ? 'fc-channel is-checked' : 'fc-channel'}>
          <input type="radio" name="fc-channel" value={ch.channel} checked={channel === ch.channel} onChange={() => onChannel(ch.channel)} />
          <span className="fc-channel-name">{tOr(t, `confirm.channel.${ch.channel}`, ch.channel)}</span>
          {ch.kind === 'wallet' && c.available && (
            <span className="fc-channel-note">
              {t('confirm.payment.available', { amount: formatMoney(c.available.amount, c.available.currency) })}
              {c.balance && c.creditLimit
                ? ` (${t('confirm.payment.balanceCredit', {
                    balance: formatMoney(c.balance.amount, c.balance.currency),
                    credit: formatMoney(c.creditLimit.amount, c.creditLimit.currency),
                  })})`
                : ''}
            </span>
          )}
        </label>
      ))}
    </fieldset>
  );
}
