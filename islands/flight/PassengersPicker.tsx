// PassengersPicker chooses how many adults, children and infants travel:
// at least one adult, no more infants than adults (each sits on an adult's
// lap) and at most nine travellers in all.
import { useId } from 'react';
import { usePopover } from './usePopover';
import { useT } from '../useT';
import type { Passengers } from './types';

export const maxPassengers = 9;

type Kind = keyof Passengers;
const kinds: Kind[] = ['adult', 'child', 'infant'];

// canChange reports whether adding delta travellers of kind keeps p valid.
export function canChange(p: Passengers, kind: Kind, delta: number): boolean {
  const next = { ...p, [kind]: p[kind] + delta };
  if (next.adult < 1 || next.child < 0 || next.infant < 0) return false;
  if (next.infant > next.adult) return false;
  return next.adult + next.child + next.infant <= maxPassengers;
}

// passengersText is the summary on the picker's button.
export function passengersText(p: Passengers, t: (key: string, o?: Record<string, unknown>) => string): string {
  const parts = [t('flight.passengers.adults', { count: p.adult })];
  if (p.child) parts.push(t('flight.passengers.children', { count: p.child }));
  if (p.infant) parts.push(t('flight.passengers.infants', { count: p.infant }));
  return parts.join(', ');
}

export type PassengersPickerProps = {
  id: string;
  value: Passengers;
  onChange: (p: Passengers) => void;
  error?: string;
};

export function PassengersPicker({ id, value, onChange, error }: PassengersPickerProps) {
  const { t } = useT();
  const panelId = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const { open, root, button, close, toggle, onKeyDown } = usePopover();

  function change(kind: Kind, delta: number) {
    if (!canChange(value, kind, delta)) return;
    onChange({ ...value, [kind]: value[kind] + delta });
  }

  return (
    <div
      className={error ? 'fs-field fs-passengers field-invalid' : 'fs-field fs-passengers'}
      ref={root}
      onKeyDown={onKeyDown}
    >
      <span className="fs-label" id={labelId}>
        {t('flight.passengers.label')}
      </span>
      <button
        type="button"
        id={id}
        ref={button}
        className="fs-input fs-disclosure"
        aria-expanded={open}
        aria-controls={panelId}
        aria-labelledby={`${labelId} ${id}`}
        aria-describedby={error ? errorId : undefined}
        onClick={toggle}
      >
        {passengersText(value, t)}
      </button>
      <div id={panelId} className="fs-popover fs-passengers-panel" hidden={!open}>
        {kinds.map((k) => {
          const name = t(`flight.passengers.${k}`);
          return (
            <div className="fs-stepper" key={k} role="group" aria-label={name}>
              <span className="fs-stepper-label">
                <span>{name}</span>
                <span className="fs-stepper-hint">{t(`flight.passengers.${k}Hint`)}</span>
              </span>
              <button
                type="button"
                className="fs-step"
                aria-label={t('flight.passengers.less', { type: name })}
                disabled={!canChange(value, k, -1)}
                onClick={() => change(k, -1)}
              >
                −
              </button>
              <output className="fs-stepper-count" aria-live="polite">
                {value[k]}
              </output>
              <button
                type="button"
                className="fs-step"
                aria-label={t('flight.passengers.more', { type: name })}
                disabled={!canChange(value, k, 1)}
                onClick={() => change(k, 1)}
              >
                +
              </button>
            </div>
          );
        })}
        <p className="fs-hint">{t('flight.passengers.rule', { max: maxPassengers })}</p>
        <button type="button" className="btn btn-small" onClick={close}>
          {t('flight.passengers.done')}
        </button>
      </div>
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
