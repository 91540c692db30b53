// DocsImport fills a booking's passengers from pasted SSR DOCS lines (POST
// /base/v2/analysis/docs): the server reads them and refuses, with the
// spec's messages, a format error and the documents the booking cannot
// take (its fare's document limits, an ID card on an international trip).
// Props in, passengers out: the booking form decides which passenger each
// one fills.
import { useId, useState } from 'react';
import { useT } from '../useT';
import { ApiError, call, codes, errorText } from '../flight/api';
import type { ScannedFields } from './scan';
import './travellers.css';

// DocsPassenger is one passenger of a DOCS paste (pkg/pnr Passenger).
// Its fields are a scanned document's with the passenger type the line
// states.
export type DocsPassenger = ScannedFields & { type: string };

export type DocsLimits = { documents?: string[] | null; international?: boolean; airports?: string[] };

export type DocsImportProps = {
  limits?: DocsLimits;
  // seats is how many passengers the booking has.
  seats: number;
  onImport: (passengers: DocsPassenger[]) => void;
  disabled?: boolean;
};

export function DocsImport({ limits, seats, onImport, disabled }: DocsImportProps) {
  const { t, lang } = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');

  async function apply() {
    setBusy(true);
    setError('');
    try {
      const body = { text, documents: (limits?.documents || []).filter(Boolean), international: !!limits?.international, airports: limits?.airports || [] };
      const res = await call<{ passengers: DocsPassenger[] }>('POST', '/base/v2/analysis/docs', body, { lang });
      const ps = res?.passengers || [];
      onImport(ps.slice(0, seats));
      setNote(ps.length > seats ? t('travellers.import.more', { count: ps.length, seats }) : t('travellers.import.filled', { count: Math.min(ps.length, seats) }));
      setOpen(false);
      setText('');
    } catch (err) {
      const field = err instanceof ApiError && err.code === codes.validation ? err.fields.text : '';
      setError(field || errorText(err, t));
    } finally {
      setBusy(false);
    }
  }

  if (!open) {
    return (
      <div className="tv-docs">
        <button type="button" className="btn btn-small" disabled={disabled} onClick={() => setOpen(true)}>
          {t('travellers.import.button')}
        </button>
        {note && (
          <p className="fs-hint" role="status">
            {note}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="tv-docs tv-scan-panel" role="group" aria-label={t('travellers.import.title')}>
      <label htmlFor={`${id}-text`}>{t('travellers.import.text')}</label>
      <textarea
        id={`${id}-text`}
        rows={4}
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        placeholder="SSR DOCS CA HK1 P/CN/E12345678/CN/12MAY85/M/15MAR30/ZHANG/SAN"
        onChange={(ev) => setText(ev.target.value)}
      />
      <p className="fs-hint" id={`${id}-hint`}>
        {t('travellers.import.hint')}
      </p>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-primary btn-small" disabled={busy || !text.trim()} onClick={() => void apply()}>
          {t('travellers.import.apply')}
        </button>
        <button type="button" className="btn btn-small" onClick={() => setOpen(false)}>
          {t('travellers.import.cancel')}
        </button>
      </div>
    </div>
  );
}
