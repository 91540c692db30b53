import { describe, expect, it } from 'vitest';
import { initI18n, langFromHTML, loadMessages } from './i18n';

describe('langFromHTML', () => {
  it.each([
    ['en', 'en'],
    ['en-GB', 'en'],
    ['zh-CN', 'zh-cn'],
    ['zh-TW', 'zh-tw'],
    ['zh-Hant-HK', 'zh-tw'],
    ['', 'zh-cn'],
    [null, 'zh-cn'],
  ])('%s → %s', (tag, want) => {
    expect(langFromHTML(tag)).toBe(want);
  });
});

describe('catalogs shared with the server', () => {
  it('has the same keys in every language', async () => {
    const [en, cn, tw] = await Promise.all([loadMessages('en'), loadMessages('zh-cn'), loadMessages('zh-tw')]);
    expect(Object.keys(en).length).toBeGreaterThan(50);
    expect(Object.keys(cn).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(tw).sort()).toEqual(Object.keys(en).sort());
  });

  it('translates dotted keys and interpolates {{placeholders}}', async () => {
    const i18n = await initI18n('zh-tw');
    expect(i18n.t('application.field.country')).not.toBe('application.field.country');
    expect(i18n.t('islands.country.results', { count: 3 })).toBe('有 3 個國家/地區相符');
    const en = await initI18n('en');
    expect(en.t('router.login')).toBe('Please login');
  });
});

describe('a key the catalog lacks', () => {
  it('is reported as a console error, once per call, and not for a key it has', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => { errors.push(args.join(' ')); };
    try {
      const i18n = await initI18n('zh-cn');
      i18n.t('application.field.country');
      i18n.t('islands.country.results', { count: 3 });
      expect(errors).toEqual([]);
      expect(i18n.t('trainportal.status.nowhere')).toBe('trainportal.status.nowhere');
      expect(errors).toEqual(['i18n: missing catalog key trainportal.status.nowhere (zh-cn)']);
    } finally {
      console.error = original;
    }
  });
});
