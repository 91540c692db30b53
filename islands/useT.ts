import { createContext, useContext } from 'react';
import type { i18n } from 'i18next';

export const I18nContext = createContext<i18n | null>(null);

// useT returns the translate function of the page's language.
export function useT(): { t: (key: string, opts?: Record<string, unknown>) => string; lang: string } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useT outside an island');
  return { t: (key, opts) => i18n.t(key, opts) as string, lang: i18n.language };
}
