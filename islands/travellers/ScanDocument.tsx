// ScanDocument is the "scan document" control of a traveller form: the user
// chooses a photo of the passport or card, the server reads its
// machine-readable zone, the component shows what was read with its
// confidence for the user to check against the document, and on confirm
// hands the fields to onFill. It knows nothing of the form around it:
// props in, fields out, so the flight, train and group booking forms and
// the saved-traveller form all use it as they are.
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useT } from '../useT';
import { ApiError } from '../flight/api';
import { tOr } from '../flight/PriceDetail';
import { fieldsOf, fileProblem, recognise, type Recognition, type ScannedFields } from './scan';
import './travellers.css';

export type ScanDocumentProps = {
  // onFill receives the fields the user confirmed. A form that cannot take
  // the document (a train does not take a foreign ID card) answers why, as
  // a translated sentence: it is shown instead of "filled", and the user
  // may choose another photo.
  onFill: (fields: ScannedFields, read: Recognition) => void | string;
  // label names the traveller in the button's accessible name
  // ("Scan document for passenger 2"); the visible text stays short.
  label?: string;
  disabled?: boolean;
  // For tests: the recognition call.
  recogniseFn?: typeof recognise;
};

type State =
  | { status: 'idle' }
  | { status: 'choosing' }
  | { status: 'reading' }
  | { status: 'read'; r: Recognition }
  | { status: 'error'; message: string };

// Below this the user is told to compare every field.
export const lowConfidence = 0.8;

const shown: (keyof Recognition)[] = ['type', 'travel_document', 'surname', 'given_names', 'nationality', 'birthday', 'gender', 'expiry', 'issuing_country'];

export function ScanDocument({ onFill, label, disabled, recogniseFn = recognise }: ScanDocumentProps) {
  const { t, lang } = useT();
  const id = useId();
  const [state, setState] = useState<State>({ status: 'idle' });
  const [note, setNote] = useState('');
  const abort = useRef<AbortController | null>(null);

  async function choose(ev: ChangeEvent<HTMLInputElement>) {
    const file = ev.target.files?.[0];
    ev.target.value = '';
    if (!file) return;
    const problem = fileProblem(file);
    if (problem) {
      setState({ status: 'error', message: t(problem) });
      return;
    }
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setState({ status: 'reading' });
    setNote('');
    try {
      const r = await recogniseFn(file, lang, ctl.signal);
      if (!ctl.signal.aborted) setState({ status: 'read', r });
    } catch (err) {
      if (ctl.signal.aborted) return;
      const message = err instanceof ApiError && err.message ? err.message : t('travellers.scan.error.failed');
      setState({ status: 'error', message });
    }
  }

  function confirm(r: Recognition) {
    const refusal = onFill(fieldsOf(r), r);
    if (refusal) {
      setState({ status: 'error', message: refusal });
      return;
    }
    setState({ status: 'idle' });
    setNote(t('travellers.scan.filled'));
  }

  function cancel() {
    abort.current?.abort();
    setState({ status: 'idle' });
  }

  // Codes read as the user knows them: "Chinese passport", "Male".
  function shownValue(k: keyof Recognition, v: string): string {
    if (k === 'type' && v) return tOr(t, `confirm.document.${v}`, v);
    if (k === 'gender' && v) return tOr(t, `confirm.gender.${v}`, v);
    return v;
  }

  const picking = state.status === 'choosing' || state.status === 'error';
  return (
    <div className="tv-scan" data-scan-document>
      {state.status === 'idle' && (
        <button
          type="button"
          className="btn btn-small tv-scan-open"
          disabled={disabled}
          aria-label={label ? `${t('travellers.scan.button')} · ${label}` : undefined}
          onClick={() => setState({ status: 'choosing' })}
        >
          {t('travellers.scan.button')}
        </button>
      )}
      {note && state.status === 'idle' && (
        <p className="fs-hint tv-scan-note" role="status">
          {note}
        </p>
      )}
      {picking && (
        <div className="tv-scan-panel" role="group" aria-label={t('travellers.scan.title')}>
          <label htmlFor={`${id}-file`}>{t('travellers.scan.file')}</label>
          <input id={`${id}-file`} type="file" accept="image/jpeg,image/png,.jpg,.jpeg,.png" aria-describedby={`${id}-hint`} onChange={(ev) => void choose(ev)} />
          <p className="fs-hint" id={`${id}-hint`}>
            {t('travellers.scan.fileHint')}
          </p>
          {state.status === 'error' && (
            <p className="field-error" role="alert">
              {state.message}
            </p>
          )}
          <button type="button" className="btn btn-small" onClick={cancel}>
            {t('travellers.scan.cancel')}
          </button>
        </div>
      )}
      {state.status === 'reading' && (
        <p className="tv-scan-panel" role="status">
          {t('travellers.scan.reading')}{' '}
          <button type="button" className="btn btn-small" onClick={cancel}>
            {t('travellers.scan.cancel')}
          </button>
        </p>
      )}
      {state.status === 'read' && (
        <div className="tv-scan-panel tv-scan-result" role="group" aria-label={t('travellers.scan.check')}>
          <p className="tv-scan-check">{t('travellers.scan.check')}</p>
          <p className={state.r.confidence < lowConfidence ? 'tv-scan-confidence tv-scan-low' : 'tv-scan-confidence'} role="status">
            {t('travellers.scan.confidence', { percent: Math.round((state.r.confidence || 0) * 100) })}
            {state.r.confidence < lowConfidence && ` · ${t('travellers.scan.lowConfidence')}`}
          </p>
          <dl className="tv-scan-fields">
            {shown.map((k) => (
              <div key={k}>
                <dt>{t(`travellers.scan.field.${k}`)}</dt>
                <dd data-field={k}>{shownValue(k, String(state.r[k] ?? ''))}</dd>
              </div>
            ))}
          </dl>
          <div className="form-actions">
            <button type="button" className="btn btn-primary btn-small" onClick={() => confirm(state.r)}>
              {t('travellers.scan.confirm')}
            </button>
            <button type="button" className="btn btn-small" onClick={() => setState({ status: 'choosing' })}>
              {t('travellers.scan.again')}
            </button>
            <button type="button" className="btn btn-small" onClick={cancel}>
              {t('travellers.scan.cancel')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
