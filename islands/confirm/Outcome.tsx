// The price check's answers (spec §4 price check), each with the user's
// choices: a changed price or package to accept or leave, a fare no longer
// sold, new document rules that clear the passengers or send the user back
// to choose again, and a check that failed or timed out.
import { useEffect, useRef, type ReactNode } from 'react';
import { useT } from '../useT';
import { codes } from '../flight/api';
import { formatMoney } from '../flight/format';
import { tOr } from '../flight/PriceDetail';
import { Package } from './Summary';
import { documentsUnrestricted } from './validate';
import type { Verification } from './types';

function Panel({ tone, title, children }: { tone: 'warn' | 'error' | 'info'; title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The answer replaces the "checking" note: move to it so a screen reader
  // reads it and the keyboard is at the choices.
  useEffect(() => {
    heading.current?.focus();
  }, [title]);
  return (
    <section className={`fc-outcome fc-outcome-${tone}`} aria-labelledby="fc-outcome-title">
      <h2 id="fc-outcome-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      {children}
    </section>
  );
}

type DecideProps = {
  v: Verification;
  onAccept: () => void;
  onBack: () => void;
};

// Decision is a non-ok answer of the price check.
export function Decision({ v, onAccept, onBack }: DecideProps) {
  const { t } = useT();
  const s = v.solution;
  const back = (label = t('confirm.action.backToSearch')) => (
    <button type="button" className="btn" onClick={onBack}>
      {label}
    </button>
  );
  // choice takes what the check found (accept) or goes back.
  const choice = (accept: string, backLabel?: string) => (
    <p className="fc-actions">
      <button type="button" className="btn btn-primary" onClick={onAccept} disabled={!s}>
        {accept}
      </button>
      {back(backLabel)}
    </p>
  );
  switch (v.status) {
    case 'price_changed':
      return (
        <Panel tone="warn" title={t('confirm.check.priceChanged.title')}>
          <p>{t('confirm.check.priceChanged.body')}</p>
          <dl className="fc-prices">
            <div>
              <dt>{t('confirm.check.previousTotal')}</dt>
              <dd className="fc-old">{v.previousTotal ? formatMoney(v.previousTotal.amount, v.previousTotal.currency) : '—'}</dd>
            </div>
            <div>
              <dt>{t('confirm.check.newTotal')}</dt>
              <dd className="fc-new">{s ? formatMoney(s.total.amount, s.total.currency) : '—'}</dd>
            </div>
          </dl>
          {choice(t('confirm.action.acceptPrice'))}
        </Panel>
      );
    case 'package_changed':
      return (
        <Panel tone="warn" title={t('confirm.check.packageChanged.title')}>
          <p>{t('confirm.check.packageChanged.body')}</p>
          {s && <Package solution={s} />}
          {s && (
            <p>
              {t('confirm.check.newTotal')}: <strong>{formatMoney(s.total.amount, s.total.currency)}</strong>
            </p>
          )}
          {choice(t('confirm.action.acceptPackage'))}
        </Panel>
      );
    case 'document_restriction_changed': {
      const r = s?.restrictions;
      const docs = documentsUnrestricted(r) ? t('confirm.restrictions.anyDocument') : (r?.documents || []).map((d) => tOr(t, `confirm.document.${d}`, d)).join(', ');
      return (
        <Panel tone="warn" title={t('confirm.check.documents.title')}>
          <p>{t('confirm.check.documents.body', { documents: docs })}</p>
          {choice(t('confirm.action.proceedClear'), t('confirm.action.keepOriginal'))}
          <p className="fs-hint">{t('confirm.check.documents.keepHint')}</p>
        </Panel>
      );
    }
    default:
      return (
        <Panel tone="error" title={t('confirm.check.invalid.title')}>
          <p>{t('confirm.check.invalid.body')}</p>
          <p className="fc-actions">{back()}</p>
        </Panel>
      );
  }
}

type FailedProps = {
  code: number;
  message: string;
  onRetry: () => void;
  onBack: () => void;
};

// CheckFailed is a price check that did not answer: a time-out (400003) may
// be tried again; a stale search (400002) or a solution no longer in it
// (404) needs a new search.
export function CheckFailed({ code, message, onRetry, onBack }: FailedProps) {
  const { t } = useT();
  let title = t('confirm.check.failed.title');
  let retry = true;
  if (code === codes.searchTimeout) title = t('confirm.check.timeout.title');
  else if (code === codes.quoteExpired) {
    title = t('confirm.check.stale.title');
    retry = false;
  } else if (code === codes.notFound) {
    title = t('confirm.check.notFound.title');
    retry = false;
  }
  return (
    <Panel tone="error" title={title}>
      <p>{message}</p>
      {!retry && <p>{t('confirm.check.searchAgain')}</p>}
      <p className="fc-actions">
        {retry && (
          <button type="button" className="btn btn-primary" onClick={onRetry}>
            {t('confirm.action.retry')}
          </button>
        )}
        <button type="button" className={retry ? 'btn' : 'btn btn-primary'} onClick={onBack}>
          {t('confirm.action.backToSearch')}
        </button>
      </p>
    </Panel>
  );
}
